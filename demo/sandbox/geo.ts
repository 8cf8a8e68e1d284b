// GET /ip_lookup/<client>/<ip>: fixed answers for the documentation ranges, nulls for everything else.
import type { GeoLookupResponse } from '../../worker/contract/geo-types.ts';
import { GEO_FIXTURES, nullGeo } from './geo-fixtures.ts';
import { invalid, json } from './http.ts';
import { formatIp, isNonPublic, parseIp } from './ip.ts';

const BY_ADDRESS = new Map(GEO_FIXTURES.map((fixture) => {
  const parsed = parseIp(fixture.ip);
  if (!parsed) throw new Error(`geo fixture ${fixture.ip} is not an address`);
  return [formatIp(parsed), fixture];
}));

export function geoLookup(client: string, rawIp: string): Response {
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(client)) {
    throw invalid('invalid_client', 'The client name may hold only letters, digits, _ . - (1-100 characters).');
  }
  const parsed = parseIp(rawIp);
  if (!parsed) throw invalid('invalid_ip_address', `'${rawIp}' is not an IPv4 or IPv6 address.`);
  const ip = formatIp(parsed);
  const fixture = BY_ADDRESS.get(ip);
  // Non-public addresses cannot be placed; other public ones would need a location database the sandbox does not ship.
  const answer: GeoLookupResponse = fixture && !isNonPublic(parsed)
    ? { ip, geo: { ...fixture.geo }, proxy: typeof fixture.proxy === 'string' ? fixture.proxy : { ...fixture.proxy } }
    : { ip, geo: nullGeo(), proxy: { identification: null, type: null } };
  return json(answer);
}
