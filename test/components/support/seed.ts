/**
 * Ids of the sandbox's deterministic seed and addresses of its geo fixtures that the browser suites against the real
 * worker share (demo/sandbox/seed.ts, demo/sandbox/geo-fixtures.ts; the worker's shipped configuration binds the
 * europe policy to EUROPE_SITE).
 */
export const SITE = 'vbQmzoYd';
/** A published food media of SITE. */
export const FOOD = 'DGRTLuft';
export const EUROPE_SITE = '93QufRA9';
/** EUROPE_SITE's "Live Music" playlist. */
export const LIVE_MUSIC = 'TwZWDpHr';
export const BERLIN = '192.0.2.30';
export const NEW_YORK = '192.0.2.20';
