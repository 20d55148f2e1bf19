import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a sign-in is throttled under (`login_attempts.address`). An IPv4 address is itself, also when
 * written IPv4-mapped (`::ffff:203.0.113.5`, as a dual-stack socket reports it). An IPv6 address is its /64
 * (`2001:db8:1:2::/64`): one subscriber or host is given a whole /64 and may take any address in it, so a
 * per-address limit on full IPv6 addresses would not limit anyone. Anything else is kept as it came.
 */
export function throttleAddress(address: string): string {
  const bare = address.split('%')[0]!;
  if (!isIPv6(bare)) return address;
  const mapped = /^::ffff:([\d.]+)$/i.exec(bare);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  return `${ipv6Groups(bare).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in hexadecimal without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!isIPv4(g)) return [g];
          // An IPv4 address in the last 32 bits (e.g. 64:ff9b::198.51.100.7) is two groups.
          const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const first = groupsOf(head);
  const last = tail === undefined ? [] : groupsOf(tail);
  const zeros = new Array(8 - first.length - last.length).fill('0');
  return [...first, ...zeros, ...last].map((g) => Number.parseInt(g, 16).toString(16));
}
