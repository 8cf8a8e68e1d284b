// Simulated visitors. The edge worker runs with DEV_MODE on in the bench, so `x-reelgate-dev-ip` names each request's
// address: the load comes from many visitors, as real traffic does, each with its own abuse-limit window and location.
// Addresses are from the IPv4 documentation ranges above the sandbox's geo fixtures (which sit at the low end of each),
// then one per /64 of the IPv6 documentation range 2001:db8::/32 (each /64 is its own visitor to the abuse limit and
// its own Geo API lookup, as an IPv4 address is): enough visitors that no run of section 1 meets the abuse limit's
// 120 requests a minute per visitor, however fast the machine.
export function visitorAddresses(count, offset = 0) {
  const pool = [];
  for (const prefix of ['203.0.113.', '198.51.100.', '192.0.2.']) {
    for (let host = 120; host <= 250; host++) pool.push(`${prefix}${host}`);
  }
  for (let net = 1; pool.length < offset + count && net <= 0xffff; net++) pool.push(`2001:db8:${net.toString(16)}::1`);
  if (offset + count > pool.length) throw new Error(`only ${pool.length} visitor addresses`);
  return pool.slice(offset, offset + count);
}

/** A rotating `x-reelgate-dev-ip` header over the given addresses. */
export function rotatingVisitor(addresses) {
  let next = 0;
  return () => ({ 'x-reelgate-dev-ip': addresses[next++ % addresses.length] });
}
