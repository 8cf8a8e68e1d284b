/** Types of the Geo Location Lookup API (spec: "Geo lookup response") and of reelgate's normalised location. */

export const PROXY_IDENTIFICATIONS = [
  'cloud', 'cloud_security', 'dns', 'tor_exit', 'tor_relay', 'vpn', 'web_browser',
] as const;
export type ProxyIdentification = (typeof PROXY_IDENTIFICATIONS)[number];

export const PROXY_TYPES = [
  'aol', 'anonymous', 'blackberry', 'corporate', 'edu', 'hosting', 'public', 'transparent',
] as const;
export type ProxyType = (typeof PROXY_TYPES)[number];

export const CONNECTION_SPEEDS = [
  'broadband', 'cable', 'dialup', 'DSL', 'mobile', 'oc3', 'oc12', 'satellite', 't1', 't3', 'wireless',
] as const;

/**
 * The raw answer as the spec describes it. Every `geo` member may be null; providers in this family are also known to
 * send numbers where the table says strings (and the reverse), lower-case codes, and `uk` for Great Britain, so raw
 * members are typed loosely and only the normaliser's output is trusted.
 */
export interface GeoLookupResponse {
  ip: string;
  geo: {
    area_codes: string | number | null;
    city: string | null;
    city_code: number | string | null;
    city_confidence_percentage: number | string | null;
    connection_speed: string | null;
    continent_code: string | null;
    country: string | null;
    country_code: number | string | null;
    country_confidence_percentage: number | string | null;
    gmt_offset: string | number | null;
    in_dst: boolean | string | null;
    latitude: number | string | null;
    longitude: number | string | null;
    metro_code: number | string | null;
    postal_code: string | number | null;
    postal_confidence_percentage: number | string | null;
    region: string | null;
    region_code: number | string | null;
    region_confidence_percentage: number | string | null;
    timezone_name: string | null;
    two_letter_country_code: string | null;
  } | null;
  /** Objects per the response (the parameter table calls it a string); `"null"` or null for "not a proxy". */
  proxy: { identification: string | null; type: string | null } | string | null;
}

/** The one clean shape the worker and widgets use. Every member nullable; codes upper case. */
export interface NormalisedGeo {
  ip: string | null;
  /** ISO 3166-1 alpha-2, upper case (`GB`, never `UK`). */
  country: string | null;
  country_name: string | null;
  /** ISO 3166-1 numeric. */
  country_numeric: number | null;
  /** Two-letter continent code, upper case: AF AN AS EU NA OC SA. */
  continent: string | null;
  region: string | null;
  region_code: string | null;
  city: string | null;
  postal_code: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
  /** `+hhmm` / `-hhmm`. */
  gmt_offset: string | null;
  in_dst: boolean | null;
  connection_speed: (typeof CONNECTION_SPEEDS)[number] | null;
  country_confidence: number | null;
  proxy: { identification: ProxyIdentification | null; type: ProxyType | null };
  // Added by the clients (additive, optional so existing literals still type-check); normaliseGeo always sets them.
  /** 0-100. */
  region_confidence?: number | null;
  /** 0-100. */
  city_confidence?: number | null;
  /** 0-100. */
  postal_confidence?: number | null;
  /** Telephone area code series, as text (`212`). */
  area_codes?: string | null;
  city_code?: number | null;
  metro_code?: number | null;
}
