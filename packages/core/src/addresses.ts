/**
 * Which IP addresses a webhook may be sent to. Only globally routable unicast
 * addresses pass: loopback, private, shared (CGNAT), link-local (which holds
 * the cloud metadata service), unique-local, multicast, documentation and
 * reserved ranges are refused, including IPv4 addresses embedded in IPv6.
 */
import ipaddr from 'ipaddr.js';

export type BlockedAddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link_local'
  | 'metadata'
  | 'unique_local'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'invalid';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Our policy, most specific first; parsing is ipaddr.js's. */
const V4_RANGES: Array<[string, BlockedAddressKind]> = [
  ['169.254.169.254/32', 'metadata'],
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link_local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

const V6_RANGES: Array<[string, BlockedAddressKind]> = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['::/96', 'reserved'], // IPv4-compatible, deprecated
  ['fd00:ec2::254/128', 'metadata'],
  ['fc00::/7', 'unique_local'],
  ['fe80::/10', 'link_local'],
  ['fec0::/10', 'reserved'], // site-local, deprecated
  ['ff00::/8', 'multicast'],
  ['2001:db8::/32', 'documentation'],
  ['100::/64', 'reserved'], // discard-only
  ['64:ff9b:1::/48', 'reserved'], // local-use NAT64
];

const parsedV4 = V4_RANGES.map(([cidr, kind]) => [ipaddr.IPv4.parseCIDR(cidr), kind] as const);
const parsedV6 = V6_RANGES.map(([cidr, kind]) => [ipaddr.IPv6.parseCIDR(cidr), kind] as const);

const v4At = (bytes: number[], at: number, flip = 0): ipaddr.IPv4 =>
  new ipaddr.IPv4(bytes.slice(at, at + 4).map((byte) => byte ^ flip));

const within = (cidr: string) => {
  const range = ipaddr.IPv6.parseCIDR(cidr);
  return (address: ipaddr.IPv6) => address.match(range);
};

/**
 * Every IPv6 form that carries an IPv4 address, with where it sits: a packet to
 * such an address can reach the IPv4 host (through the kernel, a translator, a
 * relay or a tunnel), so the IPv4 address is judged. Local-use NAT64
 * (64:ff9b:1::/48) puts it where the operator's prefix length says, so it stays
 * refused as a whole (see V6_RANGES).
 */
const EMBEDDED_V4: Array<[(address: ipaddr.IPv6) => boolean, (bytes: number[]) => ipaddr.IPv4[]]> = [
  [within('::ffff:0:0/96'), (b) => [v4At(b, 12)]], // IPv4-mapped
  [within('::ffff:0:0:0/96'), (b) => [v4At(b, 12)]], // IPv4-translated (SIIT, RFC 6145)
  [within('::/96'), (b) => [v4At(b, 12)]], // IPv4-compatible (deprecated)
  [within('64:ff9b::/96'), (b) => [v4At(b, 12)]], // NAT64, well-known prefix (RFC 6052)
  [within('2002::/16'), (b) => [v4At(b, 2)]], // 6to4
  [within('2001::/32'), (b) => [v4At(b, 4), v4At(b, 12, 0xff)]], // Teredo: server, client (inverted)
  // ISATAP interface identifier (…:0:5efe:a.b.c.d or …:200:5efe:a.b.c.d) under any prefix.
  [(a) => isIsatap(a.toByteArray()), (b) => [v4At(b, 12)]],
];

function isIsatap(bytes: number[]): boolean {
  return (bytes[8] === 0 || bytes[8] === 2) && bytes[9] === 0 && bytes[10] === 0x5e && bytes[11] === 0xfe;
}

function ipv4Kind(address: ipaddr.IPv4): BlockedAddressKind | null {
  for (const [range, kind] of parsedV4) if (address.match(range)) return kind;
  return null;
}

function ipv6Kind(address: ipaddr.IPv6): BlockedAddressKind | null {
  // `::` and `::1` first: they lie inside the IPv4-compatible range.
  for (const [range, kind] of parsedV6.slice(0, 2)) if (address.match(range)) return kind;
  const bytes = address.toByteArray();
  for (const [holds, embedded] of EMBEDDED_V4) {
    if (!holds(address)) continue;
    for (const inner of embedded(bytes)) {
      const kind = ipv4Kind(inner);
      if (kind) return kind;
    }
  }
  for (const [range, kind] of parsedV6) if (address.match(range)) return kind;
  return null;
}

function parse(text: string): Address | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  // Only the four-part dotted form counts as IPv4: "1.2.3" is not an address here.
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare) : null;
}

/** Why an address may not receive webhooks, or null when it is a public unicast address. */
export function blockedAddressKind(address: string): BlockedAddressKind | null {
  const parsed = parse(address);
  if (!parsed) return 'invalid';
  return parsed.kind() === 'ipv4' ? ipv4Kind(parsed as ipaddr.IPv4) : ipv6Kind(parsed as ipaddr.IPv6);
}

export const isPublicAddress = (address: string): boolean => blockedAddressKind(address) === null;
