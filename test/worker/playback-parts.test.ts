// The parts of geo-bound playback on their own: the token format, the signing keys, the playback configuration, the
// network a URL binds to, and the HLS rewrite (URIs that the sandbox's playlists do not exercise: keys, init maps,
// absolute and escaping URIs).
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../worker/config.ts';
import { PlaylistOutsideFolder, rewritePlaylist } from '../../worker/playback/hls.ts';
import { parsePlaybackKeys, playbackKeys } from '../../worker/playback/keys.ts';
import { playbackNetwork } from '../../worker/playback/network.ts';
import { base64url, digest8, fromBase64url, signToken, verifyToken, type PlaybackGrant } from '../../worker/playback/token.ts';
import { expiryFor } from '../../worker/playback/urls.ts';

const ONE = 'one:first-playback-key-for-the-parts-suite-0001';
const TWO = 'two:second-playback-key-for-the-parts-suite-0002';

async function grant(overrides: Partial<PlaybackGrant> = {}): Promise<PlaybackGrant> {
  return {
    site: 'AbCdEfGh', media: 'Zz9Yy8Xx', resource: 'source', scope: 'folder',
    digest: await digest8('https://cdn.example/hls/Zz9Yy8Xx/master.m3u8'), expires: 2_000_000_000,
    network: await digest8('a network'), ...overrides,
  };
}

describe('playback tokens', () => {
  it('round-trip: site, media, resource, scope, digest, expiry and network come back as signed', async () => {
    const [key] = await playbackKeys({ PLAYBACK_KEYS: ONE, API_SECRET: 'x' });
    for (const g of [await grant(), await grant({ resource: 'poster', scope: 'file', network: null }),
      await grant({ resource: 'track', scope: 'file' })]) {
      const token = await signToken(key!, g);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(token.length).toBeLessThanOrEqual(160);
      const verified = await verifyToken([key!], token, 1_900_000_000);
      expect(verified).toEqual({ ok: true, kid: 'one', grant: g });
    }
  });

  it('expiry is checked after the signature: a forged expired token is invalid, a genuine one expired', async () => {
    const [key] = await playbackKeys({ PLAYBACK_KEYS: ONE, API_SECRET: 'x' });
    const token = await signToken(key!, await grant({ expires: 1_000 }));
    expect(await verifyToken([key!], token, 1_000)).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyToken([key!], token, 999)).toMatchObject({ ok: true });
    const bytes = fromBase64url(token)!;
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    expect(await verifyToken([key!], base64url(bytes), 1_000)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('a token signed by a key not listed, or with its key id changed, is invalid', async () => {
    const [one] = await playbackKeys({ PLAYBACK_KEYS: ONE, API_SECRET: 'x' });
    const [two] = await playbackKeys({ PLAYBACK_KEYS: TWO, API_SECRET: 'x' });
    const token = await signToken(one!, await grant());
    expect(await verifyToken([two!], token, 0)).toEqual({ ok: false, reason: 'invalid' });
    // Same key material under another id: the id is signed too.
    const relabelled = { kid: 'two', key: one!.key };
    expect(await verifyToken([relabelled], token, 0)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyToken([two!, one!], token, 0)).toMatchObject({ ok: true, kid: 'one' });
  });

  it('refuses non-canonical base64url, trailing bytes and unknown flags', async () => {
    const [key] = await playbackKeys({ PLAYBACK_KEYS: ONE, API_SECRET: 'x' });
    const token = await signToken(key!, await grant());
    expect(await verifyToken([key!], `${token}A`, 0)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyToken([key!], `${token}==`, 0)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyToken([key!], token.replace(/[A-Za-z0-9]$/, '.'), 0)).toEqual({ ok: false, reason: 'invalid' });
    expect(await verifyToken([key!], '', 0)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('playback keys', () => {
  it('reads kid:secret pairs, the first one signing, at most two', () => {
    expect(parsePlaybackKeys(`${ONE}, ${TWO}`).map((k) => k.kid)).toEqual(['one', 'two']);
    expect(() => parsePlaybackKeys(`${ONE},${TWO},three:third-playback-key-for-the-parts-suite-03`)).toThrow(/at most 2/);
    expect(() => parsePlaybackKeys('short:tooshort')).toThrow(/at least 32/);
    expect(() => parsePlaybackKeys(`${ONE},${ONE}`)).toThrow(/twice/);
    expect(() => parsePlaybackKeys('no-colon-here-but-long-enough-to-be-a-secret')).toThrow(/key id/);
    expect(() => parsePlaybackKeys('   ')).toThrow(/empty/);
  });

  it('never names the secret in an error', () => {
    try {
      parsePlaybackKeys('bad id:secret-that-must-not-leak-into-logs-000001');
    } catch (error) {
      expect(String(error)).not.toContain('secret-that-must-not-leak');
    }
  });

  it('without PLAYBACK_KEYS one key is derived from the API secret, under the key id "api"', async () => {
    const a = await playbackKeys({ API_SECRET: 'secret-a' });
    const b = await playbackKeys({ API_SECRET: 'secret-b' });
    expect(a.map((k) => k.kid)).toEqual(['api']);
    const token = await signToken(a[0]!, await grant());
    expect(await verifyToken(a, token, 0)).toMatchObject({ ok: true });
    expect(await verifyToken(b, token, 0)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('playback configuration', () => {
  it('defaults to 60-minute URLs bound to the viewer\'s network', () => {
    expect(parseConfig({}).playback).toEqual({ tokenMinutes: 60, bindNetwork: true });
    expect(parseConfig({ playback: { token_minutes: 15, bind_network: false } }).playback)
      .toEqual({ tokenMinutes: 15, bindNetwork: false });
  });

  it('names the mistake', () => {
    expect(() => parseConfig({ playback: { token_minutes: 0 } })).toThrow(ConfigError);
    expect(() => parseConfig({ playback: { token_minutes: 1441 } })).toThrow(/playback.token_minutes/);
    expect(() => parseConfig({ playback: { bind_network: 'yes' } })).toThrow(/playback.bind_network/);
    expect(() => parseConfig({ playback: { keys: 'x' } })).toThrow(/playback.keys is not a known setting/);
  });

  it('rounds the expiry up to the minute, so answers within one minute carry the same URLs', () => {
    expect(expiryFor(1_000_000_000_000, 60)).toBe(1_000_003_620);
    expect(expiryFor(1_000_000_019_000, 60)).toBe(1_000_003_620);
    expect(expiryFor(1_000_000_000_000, 1) % 60).toBe(0);
  });
});

describe('the network a URL binds to', () => {
  it('is an IPv4 /24 or an IPv6 /64', () => {
    expect(playbackNetwork('192.0.2.30')).toBe('192.0.2.0/24');
    expect(playbackNetwork('::ffff:192.0.2.30')).toBe('192.0.2.0/24');
    expect(playbackNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(playbackNetwork('not an address')).toBeNull();
  });
});

describe('HLS rewrite', () => {
  const folder = new URL('https://cdn.example/hls/Zz9Yy8Xx/');
  const prefix = '/api/play/TOKEN/';

  it('rewrites variants, segments, keys, init maps, subtitle and I-frame URIs; leaves other tags alone', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-SESSION-KEY:METHOD=AES-128,URI="keys/k1.key"',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="subs/en.m3u8"',
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI="https://cdn.example/hls/Zz9Yy8Xx/iframes.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000',
      '360p/index.m3u8',
      '# a comment with URI="not/rewritten"',
      '',
    ].join('\n');
    expect(rewritePlaylist(master, new URL('master.m3u8', folder), folder, prefix, '?dev_ip=1')).toBe([
      '#EXTM3U',
      '#EXT-X-SESSION-KEY:METHOD=AES-128,URI="/api/play/TOKEN/keys/k1.key?dev_ip=1"',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",URI="/api/play/TOKEN/subs/en.m3u8?dev_ip=1"',
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI="/api/play/TOKEN/iframes.m3u8?dev_ip=1"',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000',
      '/api/play/TOKEN/360p/index.m3u8?dev_ip=1',
      '# a comment with URI="not/rewritten"',
      '',
    ].join('\n'));
    const media = ['#EXTM3U', '#EXT-X-KEY:METHOD=AES-128,URI="../keys/k1.key",IV=0x1', '#EXT-X-MAP:URI="init.mp4"',
      '#EXTINF:6.0,', 'seg-0.m4s'].join('\n');
    expect(rewritePlaylist(media, new URL('360p/index.m3u8', folder), folder, prefix).split('\n')).toEqual([
      '#EXTM3U', '#EXT-X-KEY:METHOD=AES-128,URI="/api/play/TOKEN/keys/k1.key",IV=0x1',
      '#EXT-X-MAP:URI="/api/play/TOKEN/360p/init.mp4"', '#EXTINF:6.0,', '/api/play/TOKEN/360p/seg-0.m4s']);
  });

  it('refuses a playlist that reaches outside its folder rather than pass an upstream URL on', () => {
    const at = new URL('360p/index.m3u8', folder);
    for (const uri of ['https://elsewhere.example/seg.ts', '../../other/seg.ts', 'seg.ts?sig=1', 'skd://key',
      'https://cdn.example/hls/Other000/seg.ts']) {
      expect(() => rewritePlaylist(`#EXTM3U\n${uri}\n`, at, folder, prefix), uri).toThrow(PlaylistOutsideFolder);
      expect(() => rewritePlaylist(`#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="${uri}"\n`, at, folder, prefix), uri)
        .toThrow(PlaylistOutsideFolder);
    }
  });
});
