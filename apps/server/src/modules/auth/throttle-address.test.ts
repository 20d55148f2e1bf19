import { describe, expect, it } from 'vitest';
import { throttleAddress } from './throttle-address';

describe('throttleAddress', () => {
  it('keeps an IPv4 address, also written IPv4-mapped', () => {
    expect(throttleAddress('203.0.113.5')).toBe('203.0.113.5');
    expect(throttleAddress('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(throttleAddress('::FFFF:203.0.113.5')).toBe('203.0.113.5');
  });

  it('takes an IPv6 address as its /64, however it is written', () => {
    const net = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:abcd::',
      '2001:db8:1:2:0:0:0:0',
      '2001:db8:1:2::1%eth0',
    ])
      expect(throttleAddress(address)).toBe(net);
    expect(throttleAddress('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttleAddress('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
    expect(throttleAddress('1:2:3:4:5:6:198.51.100.7')).toBe('1:2:3:4::/64');
  });

  it('keeps what is not an IP address as it came', () => {
    expect(throttleAddress('unknown')).toBe('unknown');
  });
});
