/** The network a playback URL may be bound to: an IPv4 /24 or an IPv6 /64, kept only as a salted digest. */
import type { Env } from '../env.ts';
import { visitorNetwork } from '../upstream/index.ts';
import { callerAddress, hashAddress } from '../visitor.ts';
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
