/** The network a playback URL may be bound to: an IPv4 /24 or an IPv6 /64, kept only as a salted digest. */
import type { Env } from '../env.ts';
import { ApiError } from '../http/errors.ts';
import { visitorNetwork } from '../http/ip-address.ts';
import { callerAddress, hashAddress } from '../http/visitor.ts';
import { digest8 } from './token.ts';

/** `a.b.c.0/24` for IPv4 (mapped and NAT64 forms included), `x:x:x:x::/64` for IPv6, or null. */
export function playbackNetwork(address: string): string | null {
  const network = visitorNetwork(address);
  if (!network) return null;
  if (network.endsWith('/64')) return network;
  const octets = network.split('.');
  return `${octets.slice(0, 3).join('.')}.0/24`;
}

/** The caller's network digest, or null when the caller has no readable address. */
export async function networkDigest(request: Request, env: Pick<Env, 'DEV_MODE' | 'ADDRESS_SALT' | 'API_SECRET'>):
Promise<Uint8Array | null> {
  const address = callerAddress(request, env);
  const network = address ? playbackNetwork(address) : null;
  return network ? digest8(await hashAddress(env, `playback:${network}`)) : null;
}

/**
 * With `playback.bind_network` on, no playback URL is minted for a caller whose address cannot be read (absent or
 * malformed `CF-Connecting-IP`, or DEV_MODE's stand-in): such a URL would carry no binding and replay from anywhere.
 * 403 `address_unreadable`.
 */
export const addressUnreadable = () => new ApiError(403, 'address_unreadable',
  'Your network address could not be read, so no playback URL can be issued for this content.');

/** The network digest a URL minted now must carry: null when binding is off; refused when it is on and unreadable. */
export async function playbackBinding(request: Request, env: Pick<Env, 'DEV_MODE' | 'ADDRESS_SALT' | 'API_SECRET'>,
  bindNetwork: boolean): Promise<Uint8Array | null> {
  if (!bindNetwork) return null;
  const network = await networkDigest(request, env);
  if (!network) throw addressUnreadable();
  return network;
}
