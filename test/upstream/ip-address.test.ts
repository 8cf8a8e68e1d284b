import { describe, expect, it } from 'vitest';
import {
  InvalidIpAddressError, isPublicAddress, parseIpAddress, requireIpAddress, visitorNetwork,
} from '../../worker/upstream/index.ts';

describe('parseIpAddress: IPv4 is strict dotted decimal', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['8.8.8.8', '8.8.8.8'],
  ])('%s is IPv4 %s', (input, canonical) => {
    expect(parseIpAddress(input)).toEqual({ version: 4, address: canonical });
  });

  it.each([
    ['192.0.2.01', 'a leading zero (octal elsewhere)'],
    ['010.0.0.1', 'octal-looking'],
    ['0x7f.0.0.1', 'hex part'],
    ['127.1', 'shortened form'],
    ['2130706433', 'a single integer'],
    ['1.2.3.4.5', 'five parts'],
    ['256.0.0.1', 'a part over 255'],
    ['1.2.3.', 'an empty part'],
    [' 1.2.3.4', 'leading space'],
    ['1.2.3.4 ', 'trailing space'],
    ['', 'empty'],
    ['1.2.3.-4', 'a sign'],
    ['１.2.3.4', 'a full-width digit'],
  ])('refuses %j (%s)', (input) => {
    expect(parseIpAddress(input)).toBeNull();
  });
});

describe('parseIpAddress: IPv6 per RFC 4291, canonical per RFC 5952', () => {
  it.each([
    ['2001:db8::1', '2001:db8::1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['::', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], // first of two equal runs
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'], // a single zero group is not compressed
    ['2001:db8::0:1:0:0:0', '2001:db8:0:0:1::'], // the longest run wins
    ['FE80::ABCD', 'fe80::abcd'],
    ['::ffff:192.0.2.1', '::ffff:192.0.2.1'],
    ['::FFFF:c000:0201', '::ffff:192.0.2.1'], // IPv4-mapped keeps a dotted tail
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
    ['1::2:3:4:5:6:7', '1:0:2:3:4:5:6:7'],
  ])('%s → %s', (input, canonical) => {
    expect(parseIpAddress(input)).toEqual({ version: 6, address: canonical });
  });

  it.each([
    ['fe80::1%eth0', 'a zone id'],
    ['fe80::1%25eth0', 'an encoded zone id'],
    ['1:2:3:4:5:6:7', 'seven groups'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['1::2::3', 'two compressions'],
    ['1:::2', 'three colons'],
    [':1:2:3:4:5:6:7', 'a lone leading colon'],
    ['1:2:3:4:5:6:7:', 'a lone trailing colon'],
    ['12345::1', 'a five-digit group'],
    ['g::1', 'a non-hex digit'],
    ['::1.2.3.04', 'an embedded IPv4 with a leading zero'],
    ['1.2.3.4::', 'an IPv4 part before the end'],
    ['::1.2.3.4:1', 'an IPv4 part not at the end'],
    ['1:2:3:4:5:6:7:1.2.3.4', 'too many groups with an IPv4 tail'],
    ['[::1]', 'brackets'],
  ])('refuses %j (%s)', (input) => {
    expect(parseIpAddress(input)).toBeNull();
  });

  it('requireIpAddress names zone ids and bad input in its error', () => {
    expect(() => requireIpAddress('fe80::1%eth0')).toThrow(InvalidIpAddressError);
    expect(() => requireIpAddress('fe80::1%eth0')).toThrow(/zone ids/);
    expect(() => requireIpAddress('not-an-ip')).toThrow(/not-an-ip/);
    expect(requireIpAddress('2001:DB8::1').address).toBe('2001:db8::1');
  });
});

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8', '1.1.1.1', '192.0.2.10', '198.51.100.7', '203.0.113.200', // documentation ranges count as lookup-able
    '2001:db8::42', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8',
  ])('%s can be looked up', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.0.8',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:10.0.0.1', '::ffff:127.0.0.1',
    'not an address', '',
  ])('%s cannot', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it('keeps the edges of the private ranges right', () => {
    expect(isPublicAddress('172.15.255.255')).toBe(true);
    expect(isPublicAddress('172.32.0.0')).toBe(true);
    expect(isPublicAddress('100.128.0.0')).toBe(true);
    expect(isPublicAddress('11.0.0.0')).toBe(true);
  });
});

describe('visitorNetwork: the per-visitor limit counts IPv6 addresses by their /64', () => {
  it('counts every address of one /64 as one visitor, whatever its spelling', () => {
    const network = visitorNetwork('2001:db8:1:2::1');
    expect(network).toBe('2001:db8:1:2::/64');
    for (const address of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:DB8:1:2:0:0:0:82', '2001:0db8:0001:0002::abcd']) {
      expect(visitorNetwork(address)).toBe(network);
    }
  });

  it('counts neighbouring /64s and IPv4 addresses apart', () => {
    expect(visitorNetwork('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(visitorNetwork('2001:db8::1')).toBe('2001:db8::/64');
    expect(visitorNetwork('192.0.2.1')).toBe('192.0.2.1');
    expect(visitorNetwork('192.0.2.2')).toBe('192.0.2.2');
  });

  it('counts IPv4-mapped and NAT64 addresses as the IPv4 address they carry', () => {
    expect(visitorNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(visitorNetwork('64:ff9b::c000:207')).toBe('192.0.2.7');
  });

  it('is null for anything that is not an address', () => {
    expect(visitorNetwork('')).toBeNull();
    expect(visitorNetwork('2001:db8::/64')).toBeNull();
    expect(visitorNetwork('fe80::1%eth0')).toBeNull();
  });
});
