/**
 * The embed bundle and the demo page, from Workers static assets (`dist/`, built by `npm run build`):
 * `/embed/reelgate.js` (the tag publishers paste; short cache so fixes reach pages within minutes),
 * `/embed/reelgate.<hash>.js` (a versioned copy, cached for a year), the player's chunks, only ever versioned and
 * loaded by the bundle when a player needs them (`/embed/reelgate-kit.<hash>.js`, `/embed/reelgate-hls.<hash>.js`), the
 * language packs, loaded by a page in that language (`/embed/reelgate-lang-<language>.<hash>.js`), `/embed/reelgate.css` (the elements' geometry
 * before the bundle defines them), `/embed/custom-elements.json`, and the demo page
 * with its files at `/`.
 */
import type { Env } from '../env.ts';
import { notFound } from './errors.ts';
import type { RequestContext } from './context.ts';

const SHORT = 'public, max-age=300, stale-while-revalidate=86400';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const VERSIONED = /^reelgate\.[A-Za-z0-9_-]{6,64}\.js$/;
/**
 * The player's chunks (components/reel-player/chunks.ts) and the language packs (components/shared/i18n/packs.ts):
 * named by their content, so cached for a year.
 */
const CHUNK = /^reelgate-(?:kit|hls|panel|refusal|lang-[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.[A-Za-z0-9_-]{6,64}\.js$/;

/** Whether a path on this worker is the embed bundle (`/embed/reelgate.js` or a versioned copy). */
export function isEmbedScript(path: string): boolean {
  const file = path.startsWith('/embed/') ? path.slice('/embed/'.length) : '';
  return file === 'reelgate.js' || VERSIONED.test(file);
}

async function fromAssets(request: Request, env: Env, path: string): Promise<Response> {
  if (!env.ASSETS) throw notFound();
  const headers = new Headers();
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch) headers.set('if-none-match', ifNoneMatch);
  const asset = await env.ASSETS.fetch(new Request(new URL(path, request.url), { method: request.method, headers }));
  if (asset.status === 404) throw notFound();
  // Asset responses have immutable headers; copy so the finally stage can add its own.
  return new Response(asset.body, asset);
}

export async function embedAsset({ request, env, params }: RequestContext): Promise<Response> {
  const file = params.file ?? '';
  let cacheControl: string;
  if (file === 'reelgate.js' || file === 'reelgate.css' || file === 'custom-elements.json') cacheControl = SHORT;
  else if (VERSIONED.test(file) || CHUNK.test(file)) cacheControl = IMMUTABLE;
  else throw notFound();
  const response = await fromAssets(request, env, `/${file}`);
  if (response.status === 200 || response.status === 304) response.headers.set('cache-control', cacheControl);
  return response;
}

/** The demo page (`/` is its index.html) and the files it loads. */
export async function pageAsset(request: Request, env: Env): Promise<Response> {
  const path = new URL(request.url).pathname;
  return fromAssets(request, env, path);
}
