// The platform's two URL token signing schemes as the worker computes them (worker/signing/schemes.ts), against values
// computed independently (Node's crypto, outside the worker) from the platform's documented formulas
// (jwplayer/jwplatform-docs: docs/delivery-api/legacy-url-token-signing.md and url-token-signing.md).
import { describe, expect, it } from 'vitest';
import { deliveryToken, legacySignature, signUrl, withoutSignature } from '../../worker/signing/schemes.ts';

const SECRET = 'Ksi93hsy38sjKfha9JaheEMp'; // the documentation's example secret
const EXP = 1893456000;

describe('URL token signing', () => {
  it('signs a file URL as md5("<path without its leading slash>:<exp>:<secret>")', async () => {
    expect(await legacySignature('/videos/nPripu9l-ALJ3XQCI.mp4', 1371335018, SECRET)).toBe('8625466d10eb3ff45856785a3199efb5');
    const signed = await signUrl(new URL('https://cdn.example/videos/nPripu9l-ALJ3XQCI.mp4'), 1371335018, SECRET);
    expect(signed.href).toBe('https://cdn.example/videos/nPripu9l-ALJ3XQCI.mp4?exp=1371335018&sig=8625466d10eb3ff45856785a3199efb5');
  });

  it('signs a /v2 resource with an HS256 JWT whose claims are the resource, exp and the query parameters', async () => {
    const expected = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyZXNvdXJjZSI6Ii92Mi9tZWRpYS9uUHJpcHU5bC9wb3N0ZXIuanBnIiwiZXhwIjoxODkzNDU2MDAwLCJ3aWR0aCI6IjMyMCJ9.g3EX6EeFXYeMpiuzPDjZdbJTamIFKRfdxEuHdsXMJbE';
    expect(await deliveryToken('/v2/media/nPripu9l/poster.jpg', EXP, { width: '320' }, SECRET)).toBe(expected);
    const signed = await signUrl(new URL('https://cdn.example/v2/media/nPripu9l/poster.jpg?width=320'), EXP, SECRET);
    expect(signed.searchParams.get('width')).toBe('320');
    expect(signed.searchParams.get('token')).toBe(expected);
  });

  it("writes the documentation's own example token's header and claims", async () => {
    // docs/delivery-api/url-token-signing.md: a playlist with a related media, the token's first two parts.
    const token = await deliveryToken('/v2/playlists/Xw0oaD4q', EXP, { related_media_id: 'RltV8MtT' }, SECRET);
    expect(token.split('.').slice(0, 2).join('.')).toBe('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyZXNvdXJjZSI6Ii92Mi9wbGF5bGlzdHMvWHcwb2FENHEiLCJleHAiOjE4OTM0NTYwMDAsInJlbGF0ZWRfbWVkaWFfaWQiOiJSbHRWOE10VCJ9');
  });

  it('replaces a signature the URL already carries, never signs over it', async () => {
    const once = await signUrl(new URL('https://cdn.example/tracks/AbCdEfGh.vtt'), 100, SECRET);
    const twice = await signUrl(once, 1371335018, SECRET);
    expect([...twice.searchParams.keys()]).toEqual(['exp', 'sig']);
    expect(twice.href).toBe((await signUrl(new URL('https://cdn.example/tracks/AbCdEfGh.vtt'), 1371335018, SECRET)).href);
  });

  it('drops only a signature query from a reference written in a signed file, never another query', () => {
    expect(withoutSignature('abc/720/index.m3u8?exp=1893456000&sig=8625466d10eb3ff45856785a3199efb5')).toBe('abc/720/index.m3u8');
    expect(withoutSignature('abc-120.svg?exp=1&sig=aa#xywh=0,0,160,90')).toBe('abc-120.svg#xywh=0,0,160,90');
    expect(withoutSignature('/v2/media/abc/poster.jpg?token=a.b.c')).toBe('/v2/media/abc/poster.jpg');
    expect(withoutSignature('seg-1.ts?exp=1&sig=aa&other=1')).toBe('seg-1.ts?exp=1&sig=aa&other=1');
    expect(withoutSignature('seg-1.ts?x=1')).toBe('seg-1.ts?x=1');
  });
});
