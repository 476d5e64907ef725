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
    ['not-an-ip', 'invalid'],
    ['1.2.3', 'invalid'],
    ['1:2:3:4:5:6:7:8:9', 'invalid'],
  ])('refuses %s as %s', (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '41.59.1.1', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '[2a00:1450::1]'])(
    'allows the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});
