import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (PROGRAMME-API §5): https to public addresses only, unless
 * WEBHOOK_ALLOW_PRIVATE=true (on-premises, tests), which also allows http and private addresses.
 * Addresses are judged by ipaddr.js's ranges: only plain unicast is public; loopback, private, link-local
 * (which holds the cloud metadata address 169.254.169.254), unique-local, CGNAT, reserved and the
 * IPv6 forms that embed an IPv4 address are refused.
 */
export class TargetRefused extends Error {}

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const parsed = ipaddr.process(address);
  // The deprecated IPv4-compatible form (::7f00:1, RFC 4291 2.5.5.1) embeds an IPv4 address too, but ipaddr.js
  // calls it unicast: no public host has such an address, so the whole ::/96 is refused.
  if (parsed.kind() === 'ipv6' && parsed.match(ipaddr.IPv6.parse('::'), 96)) return false;
  return parsed.range() === 'unicast';
}

/** The checks that need no DNS: the scheme, and a host that is an address already (never looked up). */
export function checkTarget(url: string, allowPrivate: boolean): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new TargetRefused('not a URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(target.protocol))
    throw new TargetRefused(`${target.protocol} targets are not allowed`);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) {
    throw new TargetRefused(`${host} is not a public address`);
  }
  return target;
}

/**
 * `checkTarget` for an endpoint being saved. RFC 6761: `localhost` and every name under it are loopback,
 * whatever a resolver says, so this is known without DNS and refused when the endpoint is saved (it was
 * accepted, and every delivery then failed at the lookup, which still refuses it).
 */
export function checkSavedTarget(url: string, allowPrivate: boolean): URL {
  const target = checkTarget(url, allowPrivate);
  if (!allowPrivate && /(^|\.)localhost\.?$/i.test(target.hostname)) {
    throw new TargetRefused(`${target.hostname} is a loopback name`);
  }
  return target;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the socket: the name is resolved once, at connect time, and the connection goes to the
 * address that was checked, so a name that resolves to a public address for a check and to a private one
 * for the connection (DNS rebinding) cannot get through. Every address of the name must be public.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused) {
        return callback(
          new TargetRefused(`${hostname} resolves to ${refused.address}, not a public address`),
          [],
        );
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new TargetRefused(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
  };
}
