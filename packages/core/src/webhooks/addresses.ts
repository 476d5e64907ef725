/**
 * Which IP addresses a webhook may be sent to. Only globally routable unicast
 * addresses pass: loopback, private, shared (CGNAT), link-local (which holds
 * the cloud metadata service), unique-local, multicast, documentation and
 * reserved ranges are refused, including IPv4 addresses embedded in IPv6.
 */

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

/** Dotted-quad IPv4 to four bytes; null for anything else. */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

/** IPv6 text (with `::`, an embedded IPv4 tail or a zone id) to sixteen bytes; null for anything else. */
export function parseIpv6(input: string): number[] | null {
  let text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) return null;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = v4;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

const inV4 = (b: number[], prefix: number[], bits: number): boolean => {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    if (take === 0) return true;
    const mask = (0xff << (8 - take)) & 0xff;
    if (((b[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
};

function ipv4Kind(b: number[]): BlockedAddressKind | null {
  if (b[0] === 169 && b[1] === 254 && b[2] === 169 && b[3] === 254) return 'metadata';
  const ranges: Array<[number[], number, BlockedAddressKind]> = [
    [[0, 0, 0, 0], 8, 'unspecified'],
    [[10, 0, 0, 0], 8, 'private'],
    [[100, 64, 0, 0], 10, 'shared'],
    [[127, 0, 0, 0], 8, 'loopback'],
    [[169, 254, 0, 0], 16, 'link_local'],
    [[172, 16, 0, 0], 12, 'private'],
    [[192, 0, 0, 0], 24, 'reserved'],
    [[192, 0, 2, 0], 24, 'documentation'],
    [[192, 88, 99, 0], 24, 'reserved'],
    [[192, 168, 0, 0], 16, 'private'],
    [[198, 18, 0, 0], 15, 'reserved'],
    [[198, 51, 100, 0], 24, 'documentation'],
    [[203, 0, 113, 0], 24, 'documentation'],
    [[224, 0, 0, 0], 4, 'multicast'],
    [[240, 0, 0, 0], 4, 'reserved'],
  ];
  for (const [prefix, bits, kind] of ranges) if (inV4(b, prefix, bits)) return kind;
  return null;
}

function ipv6Kind(b: number[]): BlockedAddressKind | null {
  const word = (i: number) => ((b[i * 2] ?? 0) << 8) | (b[i * 2 + 1] ?? 0);
  const zeroUpTo = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(15) && b[15] === 0) return 'unspecified';
  if (zeroUpTo(15) && b[15] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach the IPv4 address inside.
  if (zeroUpTo(10) && word(5) === 0xffff) return ipv4Kind(b.slice(12));
  if (word(0) === 0x64 && word(1) === 0xff9b && b.slice(4, 12).every((x) => x === 0)) return ipv4Kind(b.slice(12));
  if (word(0) === 0x2002) return ipv4Kind(b.slice(2, 6)); // 6to4
  if (zeroUpTo(12)) return 'reserved'; // IPv4-compatible, deprecated
  if (word(0) === 0xfd00 && word(1) === 0x0ec2 && b.slice(4, 14).every((x) => x === 0) && word(7) === 0x254) return 'metadata';
  if ((word(0) & 0xfe00) === 0xfc00) return 'unique_local';
  if ((word(0) & 0xffc0) === 0xfe80) return 'link_local';
  if ((word(0) & 0xffc0) === 0xfec0) return 'reserved'; // site-local, deprecated
  if ((word(0) & 0xff00) === 0xff00) return 'multicast';
  if (word(0) === 0x2001 && word(1) === 0x0db8) return 'documentation';
  if (word(0) === 0x0100 && word(1) === 0 && word(2) === 0 && word(3) === 0) return 'reserved'; // discard-only
  if (word(0) === 0x64 && word(1) === 0xff9b && word(2) === 1) return 'reserved'; // local-use NAT64
  return null;
}

/** Why an address may not receive webhooks, or null when it is a public unicast address. */
export function blockedAddressKind(address: string): BlockedAddressKind | null {
  const v4 = parseIpv4(address);
  if (v4) return ipv4Kind(v4);
  const v6 = parseIpv6(address);
  if (v6) return ipv6Kind(v6);
  return 'invalid';
}

export const isPublicAddress = (address: string): boolean => blockedAddressKind(address) === null;
