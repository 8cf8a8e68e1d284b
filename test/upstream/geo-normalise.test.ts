import { describe, expect, it } from 'vitest';
import { normaliseGeo, type GeoLookupResponse } from '../../worker/upstream/index.ts';

type RawGeo = NonNullable<GeoLookupResponse['geo']>;

const emptyGeo: RawGeo = {
  area_codes: null, city: null, city_code: null, city_confidence_percentage: null, connection_speed: null,
  continent_code: null, country: null, country_code: null, country_confidence_percentage: null, gmt_offset: null,
  in_dst: null, latitude: null, longitude: null, metro_code: null, postal_code: null, postal_confidence_percentage: null,
  region: null, region_code: null, region_confidence_percentage: null, timezone_name: null, two_letter_country_code: null,
};

function withGeo(geo: Partial<Record<keyof RawGeo, unknown>>, proxy: unknown = null): GeoLookupResponse {
  return { ip: '192.0.2.1', geo: { ...emptyGeo, ...geo } as RawGeo, proxy: proxy as GeoLookupResponse['proxy'] };
}

describe('normaliseGeo', () => {
  it('gives one clean shape for a well-formed answer', () => {
    const normalised = normaliseGeo(withGeo({
      area_codes: '212', city: 'New York', city_code: 4763, city_confidence_percentage: 80, connection_speed: 'cable',
      continent_code: 'NA', country: 'United States', country_code: 840, country_confidence_percentage: 99,
      gmt_offset: '-0500', in_dst: false, latitude: 40, longitude: -74, metro_code: 501, postal_code: '10001',
      postal_confidence_percentage: 50, region: 'New York', region_code: 'NY', region_confidence_percentage: 90,
      timezone_name: 'America/New_York', two_letter_country_code: 'US',
    }, { identification: 'vpn', type: 'anonymous' }));
    expect(normalised).toEqual({
      ip: '192.0.2.1', country: 'US', country_name: 'United States', country_numeric: 840, continent: 'NA',
      region: 'New York', region_code: 'NY', city: 'New York', postal_code: '10001', latitude: 40, longitude: -74,
      timezone: 'America/New_York', gmt_offset: '-0500', in_dst: false, connection_speed: 'cable',
      country_confidence: 99, region_confidence: 90, city_confidence: 80, postal_confidence: 50, area_codes: '212',
      city_code: 4763, metro_code: 501, proxy: { identification: 'vpn', type: 'anonymous' },
    });
  });

  it.each([
    ['gb', 'GB'], ['uk', 'GB'], ['UK', 'GB'], [' de ', 'DE'], ['Fr', 'FR'], ['xk', 'XK'],
    ['GBR', null], ['ZZ', null], ['EU', null], ['A1', null], ['', null], ['null', null], [826, null], [null, null],
  ])('two_letter_country_code %j → country %j', (raw, expected) => {
    expect(normaliseGeo(withGeo({ two_letter_country_code: raw })).country).toBe(expected);
  });

  it.each([
    [826, 826], ['826', 826], ['004', 4], [4, 4], ['GB', null], [0, null], [1000, null], ['82.6', null], [-826, null],
  ])('country_code %j → country_numeric %j', (raw, expected) => {
    expect(normaliseGeo(withGeo({ country_code: raw })).country_numeric).toBe(expected);
  });

  it.each([[212, '212'], ['212', '212'], ['', null], ['null', null]])('area_codes %j → %j', (raw, expected) => {
    expect(normaliseGeo(withGeo({ area_codes: raw })).area_codes).toBe(expected);
  });

  it.each([
    [-500, '-0500'], ['-0500', '-0500'], ['-05:00', '-0500'], ['+0530', '+0530'], [530, '+0530'], [0, '+0000'],
    ['0000', '+0000'], ['-0000', '+0000'], [1400, '+1400'], ['+0545', '+0545'],
    [-5, null], [1500, null], ['+0560', null], ['UTC', null], ['-5', null], [5.5, null],
  ])('gmt_offset %j → %j', (raw, expected) => {
    expect(normaliseGeo(withGeo({ gmt_offset: raw })).gmt_offset).toBe(expected);
  });

  it.each([
    [true, true], [false, false], ['true', true], ['FALSE', false], [1, true], [0, false], ['1', true], ['0', false],
    ['maybe', null], [2, null], [null, null],
  ])('in_dst %j → %j', (raw, expected) => {
    expect(normaliseGeo(withGeo({ in_dst: raw })).in_dst).toBe(expected);
  });

  it.each([
    ['na', 'NA'], ['EU', 'EU'], [' oc ', 'OC'], ['AN', 'AN'], ['XX', null], ['Europe', null], [7, null],
  ])('continent_code %j → %j', (raw, expected) => {
    expect(normaliseGeo(withGeo({ continent_code: raw })).continent).toBe(expected);
  });

  it('refuses confidence outside 0-100 and coordinates out of range', () => {
    const normalised = normaliseGeo(withGeo({
      country_confidence_percentage: 101, region_confidence_percentage: -1, city_confidence_percentage: '55',
      postal_confidence_percentage: '12.5', latitude: 91, longitude: '-180',
    }));
    expect(normalised.country_confidence).toBeNull();
    expect(normalised.region_confidence).toBeNull();
    expect(normalised.city_confidence).toBe(55);
    expect(normalised.postal_confidence).toBeNull();
    expect(normalised.latitude).toBeNull();
    expect(normalised.longitude).toBe(-180);
    expect(normaliseGeo(withGeo({ latitude: '51.5', longitude: 181 }))).toMatchObject({ latitude: 51.5, longitude: null });
  });

  it('accepts connection speeds in any case and only the listed ones', () => {
    expect(normaliseGeo(withGeo({ connection_speed: 'dsl' })).connection_speed).toBe('DSL');
    expect(normaliseGeo(withGeo({ connection_speed: 'OC12' })).connection_speed).toBe('oc12');
    expect(normaliseGeo(withGeo({ connection_speed: 'fibre' })).connection_speed).toBeNull();
  });

  it('keeps text members as text and turns numbers into text where the table says string', () => {
    const normalised = normaliseGeo(withGeo({ postal_code: 10001, region_code: 12, city: '  Paris ', region: '' }));
    expect(normalised).toMatchObject({ postal_code: '10001', region_code: '12', city: 'Paris', region: null });
    expect(normaliseGeo(withGeo({ timezone_name: 'Europe/London' })).timezone).toBe('Europe/London');
    expect(normaliseGeo(withGeo({ timezone_name: '<script>' })).timezone).toBeNull();
  });

  describe('proxy is always {identification, type} with values from the spec tables', () => {
    it.each([
      [{ identification: 'tor_exit', type: 'anonymous' }, { identification: 'tor_exit', type: 'anonymous' }],
      [{ identification: 'CLOUD', type: 'Hosting' }, { identification: 'cloud', type: 'hosting' }],
      [{ identification: 'null', type: 'null' }, { identification: null, type: null }],
      [{ identification: '', type: '' }, { identification: null, type: null }],
      [{ identification: 'proxy', type: 'residential' }, { identification: null, type: null }],
      [{ type: 'edu' }, { identification: null, type: 'edu' }],
      [{}, { identification: null, type: null }],
      ['null', { identification: null, type: null }],
      ['', { identification: null, type: null }],
      [null, { identification: null, type: null }],
      [undefined, { identification: null, type: null }],
      ['vpn', { identification: 'vpn', type: null }],
      ['corporate', { identification: null, type: 'corporate' }],
      ['something', { identification: null, type: null }],
      [42, { identification: null, type: null }],
    ])('%j → %j', (raw, expected) => {
      expect(normaliseGeo(withGeo({}, raw)).proxy).toEqual(expected);
    });
  });

  it('survives an answer without geo or with junk at the top', () => {
    const noGeo = normaliseGeo({ ip: '127.0.0.1', geo: null, proxy: null });
    expect(noGeo.country).toBeNull();
    expect(noGeo.ip).toBe('127.0.0.1');
    expect(noGeo.proxy).toEqual({ identification: null, type: null });
    const junk = normaliseGeo('nonsense' as unknown as GeoLookupResponse);
    expect(junk.ip).toBeNull();
    expect(junk.country).toBeNull();
    expect(normaliseGeo({ ip: '2001:DB8::0001', geo: null, proxy: null }).ip).toBe('2001:db8::1');
    expect(normaliseGeo({ ip: 'not an ip', geo: null, proxy: null }).ip).toBeNull();
  });
});
