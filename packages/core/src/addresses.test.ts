import { describe, expect, it } from 'vitest';
import { blockedAddressKind, isPublicAddress } from './addresses.ts';

describe('webhook destination addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.1.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1%eth0', 'link_local'],
    ['fd12:3456::1', 'unique_local'],
    ['fc00::1', 'unique_local'],
    ['ff02::1', 'multicast'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:c0a8:0101::1', 'private'],
    ['2001:db8::1', 'documentation'],
    // Every IPv6 form that embeds an IPv4 address is judged by that address.
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated (SIIT)
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a9fe:a9fe', 'metadata'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::7f00:1', 'loopback'], // IPv4-compatible
    ['::10.0.0.1', 'private'],
    ['::808:808', 'reserved'], // deprecated form, refused even when public
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b:1::a00:1', 'reserved'], // local-use NAT64: refused as a whole
    ['2002:7f00:1::1', 'loopback'], // 6to4
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // Teredo client 127.0.0.1, inverted
    ['2001:0:a00:1:8000:63bf:3fff:fdd2', 'private'], // Teredo server 10.0.0.1
    ['2a00:1450::5efe:c0a8:101', 'private'], // ISATAP interface id
    ['2a00:1450::200:5efe:7f00:1', 'loopback'],
    ['not-an-ip', 'invalid'],
    ['1.2.3', 'invalid'],
    ['1:2:3:4:5:6:7:8:9', 'invalid'],
  ])('refuses %s as %s', (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '41.59.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '[2a00:1450::1]',
    '::ffff:0:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('allows the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
