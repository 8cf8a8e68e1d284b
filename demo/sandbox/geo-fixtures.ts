// Fixed geo answers for the documentation address ranges (RFC 5737, RFC 3849), so tests and the demo can stand in for
// visitors from chosen countries and proxies. Some answers copy the provider family's known quirks on purpose: lower
// case codes, `uk` for Great Britain, numbers where the spec's table says strings and strings where it says integers.
import type { GeoLookupResponse } from '../../worker/contract/geo-types.ts';

type Geo = NonNullable<GeoLookupResponse['geo']>;
type Proxy = { identification: string | null; type: string | null } | string;

export interface GeoFixture {
  ip: string;
  /** What the answer shows, in words (README and /_sandbox/catalog). */
  note: string;
  /** ISO 3166-1 alpha-2 a correct normaliser derives, or null. */
  expected_country: string | null;
  geo: Geo;
  proxy: Proxy;
}

const NULL_GEO: Geo = {
  area_codes: null, city: null, city_code: null, city_confidence_percentage: null, connection_speed: null,
  continent_code: null, country: null, country_code: null, country_confidence_percentage: null, gmt_offset: null,
  in_dst: null, latitude: null, longitude: null, metro_code: null, postal_code: null, postal_confidence_percentage: null,
  region: null, region_code: null, region_confidence_percentage: null, timezone_name: null, two_letter_country_code: null,
};
export const nullGeo = (): Geo => ({ ...NULL_GEO });
const NO_PROXY = { identification: null, type: null };

interface Place {
  code: string; country: string; numeric: number; continent: string; city: string; region: string; region_code: number;
  timezone: string; gmt: string; dst: boolean; lat: number; lon: number; postal: string | null; speed: string;
}

const PLACES: Record<string, Place> = {
  london: { code: 'GB', country: 'United Kingdom', numeric: 826, continent: 'EU', city: 'London', region: 'England', region_code: 1, timezone: 'Europe/London', gmt: '+0000', dst: true, lat: 51, lon: 0, postal: 'EC1A', speed: 'broadband' },
  manchester: { code: 'GB', country: 'United Kingdom', numeric: 826, continent: 'EU', city: 'Manchester', region: 'England', region_code: 1, timezone: 'Europe/London', gmt: '+0000', dst: true, lat: 53, lon: -2, postal: 'M1', speed: 'cable' },
  dublin: { code: 'IE', country: 'Ireland', numeric: 372, continent: 'EU', city: 'Dublin', region: 'Leinster', region_code: 7, timezone: 'Europe/Dublin', gmt: '+0000', dst: true, lat: 53, lon: -6, postal: 'D01', speed: 'DSL' },
  newyork: { code: 'US', country: 'United States', numeric: 840, continent: 'NA', city: 'New York', region: 'New York', region_code: 36, timezone: 'America/New_York', gmt: '-0500', dst: true, lat: 41, lon: -74, postal: '10001', speed: 'cable' },
  sanfrancisco: { code: 'US', country: 'United States', numeric: 840, continent: 'NA', city: 'San Francisco', region: 'California', region_code: 6, timezone: 'America/Los_Angeles', gmt: '-0800', dst: true, lat: 38, lon: -122, postal: '94103', speed: 'broadband' },
  seattle: { code: 'US', country: 'United States', numeric: 840, continent: 'NA', city: 'Seattle', region: 'Washington', region_code: 53, timezone: 'America/Los_Angeles', gmt: '-0800', dst: true, lat: 48, lon: -122, postal: '98101', speed: 'oc12' },
  berlin: { code: 'DE', country: 'Germany', numeric: 276, continent: 'EU', city: 'Berlin', region: 'Berlin', region_code: 16, timezone: 'Europe/Berlin', gmt: '+0100', dst: true, lat: 53, lon: 13, postal: '10115', speed: 'DSL' },
  frankfurt: { code: 'DE', country: 'Germany', numeric: 276, continent: 'EU', city: 'Frankfurt am Main', region: 'Hesse', region_code: 6, timezone: 'Europe/Berlin', gmt: '+0100', dst: true, lat: 50, lon: 9, postal: '60311', speed: 'oc3' },
  paris: { code: 'FR', country: 'France', numeric: 250, continent: 'EU', city: 'Paris', region: 'Île-de-France', region_code: 11, timezone: 'Europe/Paris', gmt: '+0100', dst: true, lat: 49, lon: 2, postal: '75001', speed: 'broadband' },
  lyon: { code: 'FR', country: 'France', numeric: 250, continent: 'EU', city: 'Lyon', region: 'Auvergne-Rhône-Alpes', region_code: 84, timezone: 'Europe/Paris', gmt: '+0100', dst: true, lat: 46, lon: 5, postal: '69001', speed: 'wireless' },
  tokyo: { code: 'JP', country: 'Japan', numeric: 392, continent: 'AS', city: 'Tokyo', region: 'Tokyo', region_code: 13, timezone: 'Asia/Tokyo', gmt: '+0900', dst: false, lat: 36, lon: 140, postal: '100-0001', speed: 'broadband' },
  osaka: { code: 'JP', country: 'Japan', numeric: 392, continent: 'AS', city: 'Osaka', region: 'Osaka', region_code: 27, timezone: 'Asia/Tokyo', gmt: '+0900', dst: false, lat: 35, lon: 136, postal: '530-0001', speed: 't3' },
  saopaulo: { code: 'BR', country: 'Brazil', numeric: 76, continent: 'SA', city: 'São Paulo', region: 'São Paulo', region_code: 35, timezone: 'America/Sao_Paulo', gmt: '-0300', dst: false, lat: -24, lon: -47, postal: '01000-000', speed: 'mobile' },
  mumbai: { code: 'IN', country: 'India', numeric: 356, continent: 'AS', city: 'Mumbai', region: 'Maharashtra', region_code: 27, timezone: 'Asia/Kolkata', gmt: '+0530', dst: false, lat: 19, lon: 73, postal: '400001', speed: 'mobile' },
  sydney: { code: 'AU', country: 'Australia', numeric: 36, continent: 'OC', city: 'Sydney', region: 'New South Wales', region_code: 2, timezone: 'Australia/Sydney', gmt: '+1000', dst: true, lat: -34, lon: 151, postal: '2000', speed: 'broadband' },
  toronto: { code: 'CA', country: 'Canada', numeric: 124, continent: 'NA', city: 'Toronto', region: 'Ontario', region_code: 8, timezone: 'America/Toronto', gmt: '-0500', dst: true, lat: 44, lon: -79, postal: 'M5H', speed: 'cable' },
  amsterdam: { code: 'NL', country: 'Netherlands', numeric: 528, continent: 'EU', city: 'Amsterdam', region: 'North Holland', region_code: 7, timezone: 'Europe/Amsterdam', gmt: '+0100', dst: true, lat: 52, lon: 5, postal: '1012', speed: 'oc3' },
  stockholm: { code: 'SE', country: 'Sweden', numeric: 752, continent: 'EU', city: 'Stockholm', region: 'Stockholm', region_code: 1, timezone: 'Europe/Stockholm', gmt: '+0100', dst: true, lat: 59, lon: 18, postal: '111 20', speed: 't1' },
  mexico: { code: 'MX', country: 'Mexico', numeric: 484, continent: 'NA', city: 'Mexico City', region: 'Mexico City', region_code: 9, timezone: 'America/Mexico_City', gmt: '-0600', dst: false, lat: 19, lon: -99, postal: '06000', speed: 'DSL' },
  madrid: { code: 'ES', country: 'Spain', numeric: 724, continent: 'EU', city: 'Madrid', region: 'Madrid', region_code: 29, timezone: 'Europe/Madrid', gmt: '+0100', dst: true, lat: 40, lon: -4, postal: '28001', speed: 'broadband' },
  rome: { code: 'IT', country: 'Italy', numeric: 380, continent: 'EU', city: 'Rome', region: 'Lazio', region_code: 62, timezone: 'Europe/Rome', gmt: '+0100', dst: true, lat: 42, lon: 12, postal: '00100', speed: 'DSL' },
  johannesburg: { code: 'ZA', country: 'South Africa', numeric: 710, continent: 'AF', city: 'Johannesburg', region: 'Gauteng', region_code: 6, timezone: 'Africa/Johannesburg', gmt: '+0200', dst: false, lat: -26, lon: 28, postal: '2000', speed: 'mobile' },
  seoul: { code: 'KR', country: 'South Korea', numeric: 410, continent: 'AS', city: 'Seoul', region: 'Seoul', region_code: 11, timezone: 'Asia/Seoul', gmt: '+0900', dst: false, lat: 38, lon: 127, postal: '04524', speed: 'broadband' },
  auckland: { code: 'NZ', country: 'New Zealand', numeric: 554, continent: 'OC', city: 'Auckland', region: 'Auckland', region_code: 1, timezone: 'Pacific/Auckland', gmt: '+1200', dst: true, lat: -37, lon: 175, postal: '1010', speed: 'satellite' },
  buenosaires: { code: 'AR', country: 'Argentina', numeric: 32, continent: 'SA', city: 'Buenos Aires', region: 'Buenos Aires', region_code: 1, timezone: 'America/Argentina/Buenos_Aires', gmt: '-0300', dst: false, lat: -35, lon: -58, postal: 'C1000', speed: 'dialup' },
  lagos: { code: 'NG', country: 'Nigeria', numeric: 566, continent: 'AF', city: 'Lagos', region: 'Lagos', region_code: 25, timezone: 'Africa/Lagos', gmt: '+0100', dst: false, lat: 7, lon: 3, postal: '100001', speed: 'mobile' },
};

function place(name: keyof typeof PLACES, quirks: Partial<Geo> = {}): Geo {
  const p = PLACES[name]!;
  return {
    area_codes: null, city: p.city, city_code: 1000 + p.region_code, city_confidence_percentage: 80,
    connection_speed: p.speed, continent_code: p.continent, country: p.country, country_code: p.numeric,
    country_confidence_percentage: 99, gmt_offset: p.gmt, in_dst: p.dst, latitude: p.lat, longitude: p.lon,
    metro_code: null, postal_code: p.postal, postal_confidence_percentage: 60, region: p.region, region_code: p.region_code,
    region_confidence_percentage: 90, timezone_name: p.timezone, two_letter_country_code: p.code, ...quirks,
  };
}

const fx = (ip: string, expected: string | null, note: string, geo: Geo, proxy: Proxy = NO_PROXY): GeoFixture =>
  ({ ip, note, expected_country: expected, geo, proxy });

export const GEO_FIXTURES: readonly GeoFixture[] = [
  // 192.0.2.0/24: countries, no proxy
  fx('192.0.2.10', 'GB', "London; quirks: two_letter_country_code 'uk', continent 'eu', country_code as the string '826'",
    place('london', { two_letter_country_code: 'uk', continent_code: 'eu', country_code: '826' })),
  fx('192.0.2.11', 'GB', 'Manchester; clean answer', place('manchester')),
  fx('192.0.2.20', 'US', 'New York; quirks: postal_code and area_codes as numbers', place('newyork', { postal_code: 10001, area_codes: 212, metro_code: 501 })),
  fx('192.0.2.21', 'US', 'San Francisco; clean answer', place('sanfrancisco', { area_codes: '415', metro_code: 807 })),
  fx('192.0.2.30', 'DE', "Berlin; quirk: two_letter_country_code 'de' (lower case)", place('berlin', { two_letter_country_code: 'de' })),
  fx('192.0.2.40', 'FR', 'Paris; clean answer', place('paris')),
  fx('192.0.2.50', 'JP', "Tokyo; quirks: gmt_offset the number 900, latitude the string '35.68'", place('tokyo', { gmt_offset: 900, latitude: '35.68' })),
  fx('192.0.2.60', 'BR', "São Paulo; quirk: in_dst the string 'false'", place('saopaulo', { in_dst: 'false' })),
  fx('192.0.2.70', 'IN', 'Mumbai; clean answer (gmt_offset +0530)', place('mumbai')),
  fx('192.0.2.80', 'AU', "Sydney; quirks: confidences as strings ('95')", place('sydney', { country_confidence_percentage: '95', city_confidence_percentage: '70', region_confidence_percentage: '85' })),
  fx('192.0.2.90', 'CA', 'Toronto; clean answer', place('toronto')),
  fx('192.0.2.100', 'IE', 'Dublin; clean answer', place('dublin')),
  fx('192.0.2.110', 'NL', 'country only (low confidence), every other member null',
    { ...NULL_GEO, country: 'Netherlands', two_letter_country_code: 'NL', country_code: 528, continent_code: 'EU', country_confidence_percentage: 40 }),
  // 198.51.100.0/24: every proxy identification and type
  fx('198.51.100.10', 'US', 'Seattle; a cloud host', place('seattle'), { identification: 'cloud', type: 'hosting' }),
  fx('198.51.100.11', 'DE', 'Frankfurt; a corporate cloud web-security gateway', place('frankfurt'), { identification: 'cloud_security', type: 'corporate' }),
  fx('198.51.100.12', 'FR', 'Lyon; a DNS-override proxy', place('lyon'), { identification: 'dns', type: 'transparent' }),
  fx('198.51.100.13', 'NL', 'Amsterdam; an onion-network exit', place('amsterdam'), { identification: 'tor_exit', type: 'anonymous' }),
  fx('198.51.100.14', 'SE', 'Stockholm; an onion-network relay', place('stockholm'), { identification: 'tor_relay', type: 'anonymous' }),
  fx('198.51.100.15', 'GB', "London; a VPN; quirk: two_letter_country_code 'uk'", place('london', { two_letter_country_code: 'uk' }), { identification: 'vpn', type: 'anonymous' }),
  fx('198.51.100.16', 'CA', 'Toronto; a mobile browser proxy', place('toronto', { connection_speed: 'mobile' }), { identification: 'web_browser', type: 'blackberry' }),
  fx('198.51.100.17', 'US', 'New York; an online-service proxy', place('newyork'), { identification: null, type: 'aol' }),
  fx('198.51.100.18', 'AU', 'Sydney; a university proxy', place('sydney'), { identification: null, type: 'edu' }),
  fx('198.51.100.19', 'JP', 'Osaka; public internet access', place('osaka'), { identification: null, type: 'public' }),
  fx('198.51.100.20', 'GB', "Manchester; not a proxy, written as the strings 'null' (quirk)", place('manchester'), { identification: 'null', type: 'null' }),
  fx('198.51.100.21', 'IE', "Dublin; proxy given as the string 'null' instead of an object (quirk)", place('dublin'), 'null'),
  // 203.0.113.0/24: more countries
  fx('203.0.113.10', 'MX', 'Mexico City; clean answer', place('mexico')),
  fx('203.0.113.11', 'ES', "Madrid; quirk: two_letter_country_code 'es' (lower case)", place('madrid', { two_letter_country_code: 'es' })),
  fx('203.0.113.12', 'IT', 'Rome; clean answer', place('rome')),
  fx('203.0.113.13', 'ZA', 'Johannesburg; clean answer', place('johannesburg')),
  fx('203.0.113.14', 'KR', "Seoul; quirk: region_code as the string '11'", place('seoul', { region_code: '11' })),
  fx('203.0.113.15', 'NZ', 'Auckland; clean answer', place('auckland')),
  fx('203.0.113.16', 'AR', 'Buenos Aires; clean answer', place('buenosaires')),
  fx('203.0.113.17', 'NG', 'Lagos; clean answer', place('lagos')),
  // 2001:db8::/32: each of these stands for its own network, so each sits in its own /64 (one subscriber's block)...
  fx('2001:db8::10', 'DE', 'Frankfurt (IPv6); clean answer', place('frankfurt')),
  fx('2001:db8:20::20', 'US', 'Seattle (IPv6); vpn / anonymous', place('seattle'), { identification: 'vpn', type: 'anonymous' }),
  fx('2001:db8:30::30', 'JP', 'Osaka (IPv6); cloud / hosting', place('osaka'), { identification: 'cloud', type: 'hosting' }),
  fx('2001:db8:40::40', 'FR', 'Lyon (IPv6); clean answer', place('lyon')),
  fx('2001:db8:1::1', 'GB', "London (IPv6); quirk: two_letter_country_code 'uk'", place('london', { two_letter_country_code: 'uk' })),
  // ...but for this pair, which shares 2001:db8:64::/64 with different proxy classes: one /64 is no one verdict.
  fx('2001:db8:64::10', 'DE', 'Berlin (IPv6); clean answer; shares its /64 with 2001:db8:64::20', place('berlin')),
  fx('2001:db8:64::20', 'US', 'New York (IPv6); vpn / anonymous; shares its /64 with 2001:db8:64::10', place('newyork'),
    { identification: 'vpn', type: 'anonymous' }),
];
