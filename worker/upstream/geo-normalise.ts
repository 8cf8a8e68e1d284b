/**
 * The geo answer in one clean shape. Providers in this family send lower-case codes, `uk` for Great Britain, numbers
 * where the table says strings and the reverse, the string "null", and proxy as a string or an object; whatever
 * arrives, each member comes out either valid for its meaning or null. Nothing here throws.
 */
import { parseIpAddress } from '../http/ip-address.ts';
import { isoCountry } from './iso-countries.ts';
import {
  CONNECTION_SPEEDS, PROXY_IDENTIFICATIONS, PROXY_TYPES,
  type GeoLookupResponse, type NormalisedGeo, type ProxyIdentification, type ProxyType,
} from '../contract/geo-types.ts';

const CONTINENTS: ReadonlySet<string> = new Set(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA']);
const MAX_TEXT_LENGTH = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string (numbers become their decimal text); "", "null" and over-long values are null. */
function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (!trimmed || trimmed.toLowerCase() === 'null' || trimmed.length > MAX_TEXT_LENGTH) return null;
  return trimmed;
}

/** A finite number from a number or a decimal string. */
function numeric(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) return null;
  return Number(value);
}

function integer(value: unknown, min: number, max: number): number | null {
  const number = numeric(value);
  return number !== null && Number.isInteger(number) && number >= min && number <= max ? number : null;
}

function between(value: unknown, min: number, max: number): number | null {
  const number = numeric(value);
  return number !== null && number >= min && number <= max ? number : null;
}

/** ISO 3166-1 numeric: 1-999, written with or without leading zeros ("004", 4). */
function countryNumeric(value: unknown): number | null {
  if (typeof value === 'string' && !/^\s*\d{1,3}\s*$/.test(value)) return null;
  return integer(value, 1, 999);
}

function continent(value: unknown): string | null {
  const code = typeof value === 'string' ? value.trim().toUpperCase() : null;
  return code && CONTINENTS.has(code) ? code : null;
}

/** `+hhmm`/`-hhmm` from "-0500", "-05:00", "+0530" or a number in hhmm form (-500, 530, 0). */
function gmtOffset(value: unknown): string | null {
  let sign: string;
  let hours: number;
  let minutes: number;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return null;
    sign = value < 0 ? '-' : '+';
    hours = Math.floor(Math.abs(value) / 100);
    minutes = Math.abs(value) % 100;
  } else if (typeof value === 'string') {
    const match = /^\s*([+-]?)(\d{1,2}):?(\d{2})\s*$/.exec(value);
    if (!match) return null;
    sign = match[1] === '-' ? '-' : '+';
    hours = Number(match[2]);
    minutes = Number(match[3]);
  } else {
    return null;
  }
  // Real offsets run from -12:00 to +14:00 in quarter hours.
  if (hours > 14 || ![0, 15, 30, 45].includes(minutes)) return null;
  if (hours === 0 && minutes === 0) sign = '+';
  return `${sign}${String(hours).padStart(2, '0')}${String(minutes).padStart(2, '0')}`;
}

function boolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'y'].includes(word)) return true;
  if (['false', '0', 'no', 'n'].includes(word)) return false;
  return null;
}

function connectionSpeed(value: unknown): NormalisedGeo['connection_speed'] {
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  return CONNECTION_SPEEDS.find((speed) => speed.toLowerCase() === word) ?? null;
}

function timezone(value: unknown): string | null {
  const name = text(value);
  return name && /^[A-Za-z]+(?:[/_+-][A-Za-z0-9]+)*$/.test(name) ? name : null;
}

function regionCode(value: unknown): string | null {
  const code = text(value);
  return code && /^[A-Za-z0-9]{1,3}(-[A-Za-z0-9]{1,3})?$/.test(code) ? code.toUpperCase() : null;
}

function member<T extends string>(allowed: readonly T[], value: unknown): T | null {
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  return (allowed as readonly string[]).includes(word) ? (word as T) : null;
}

/** Always `{identification, type}`, each a value of the spec's tables or null. A plain string fills whichever it names. */
export function normaliseProxy(raw: unknown): NormalisedGeo['proxy'] {
  if (isRecord(raw)) {
    return {
      identification: member<ProxyIdentification>(PROXY_IDENTIFICATIONS, raw.identification),
      type: member<ProxyType>(PROXY_TYPES, raw.type),
    };
  }
  return {
    identification: member<ProxyIdentification>(PROXY_IDENTIFICATIONS, raw),
    type: member<ProxyType>(PROXY_TYPES, raw),
  };
}

export function normaliseGeo(raw: GeoLookupResponse): NormalisedGeo {
  const answer: Record<string, unknown> = isRecord(raw) ? raw : {};
  const geo: Record<string, unknown> = isRecord(answer.geo) ? answer.geo : {};
  const ip = typeof answer.ip === 'string' ? parseIpAddress(answer.ip.trim())?.address ?? null : null;
  return {
    ip,
    country: isoCountry(geo.two_letter_country_code),
    country_name: text(geo.country),
    country_numeric: countryNumeric(geo.country_code),
    continent: continent(geo.continent_code),
    region: text(geo.region),
    region_code: regionCode(geo.region_code),
    city: text(geo.city),
    postal_code: text(geo.postal_code),
    latitude: between(geo.latitude, -90, 90),
    longitude: between(geo.longitude, -180, 180),
    timezone: timezone(geo.timezone_name),
    gmt_offset: gmtOffset(geo.gmt_offset),
    in_dst: boolean(geo.in_dst),
    connection_speed: connectionSpeed(geo.connection_speed),
    country_confidence: integer(geo.country_confidence_percentage, 0, 100),
    region_confidence: integer(geo.region_confidence_percentage, 0, 100),
    city_confidence: integer(geo.city_confidence_percentage, 0, 100),
    postal_confidence: integer(geo.postal_confidence_percentage, 0, 100),
    area_codes: text(geo.area_codes),
    city_code: integer(geo.city_code, 0, Number.MAX_SAFE_INTEGER),
    metro_code: integer(geo.metro_code, 0, Number.MAX_SAFE_INTEGER),
    proxy: normaliseProxy(answer.proxy),
  };
}
