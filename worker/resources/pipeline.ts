/**
 * The one pipeline every public resource runs (its declaration is `resources/<kind>.ts`), in this order:
 * 1. `input`: the route's parameters and query, checked (a 400 comes from here, before anything else);
 * 2. `policies`: the geo policies that bind it, decided before it is read (a refused caller gets 451 and spends
 *    nothing), then `beforeLoad`, a resource's own last check (the media's network binding);
 * 3. the load: `key` + `fetch` through the cache (cache/cached.ts) and, on a miss, the budget (budget/), or a
 *    resource's own `load` hook where one request reads several entries (a feed's variants);
 * 4. `present`: what this caller is shown, and whether that depends on who asks;
 * 5. the answer (`serve` only): JSON with its ETag, `x-reelgate-cache`, `Age`, `Server-Timing`, and the
 *    `Cache-Control` of cache-caps.ts.
 * `resolveInput` stops before step 5 (and `loadInput` before step 4): the embed pages, oEmbed and the server render read
 * resources through them, with an input they made, so they see exactly what the API would answer.
 */
import { publicCaller, type CallerContext } from '../budget/index.ts';
import { cached, type CachedValue } from '../cache/index.ts';
import { enforcePolicies } from '../geo/index.ts';
import type { SiteConfig } from '../config.ts';
import type { RequestContext } from '../http/context.ts';
import { readQuery, requireId } from '../http/request-guard.ts';
import { jsonResponse, renderedResponse, type RenderedJson } from '../http/respond.ts';
import { cacheControlFor, type ResourceKind } from './cache-caps.ts';

/** The kinds whose values are cached (`key` + `fetch`). */
type CatalogKind = 'feed' | 'media' | 'player';

/** Policy names; empty, null and undefined entries name none. */
export type PolicyNames = ReadonlyArray<string | null | undefined>;

/** What a resource is loaded as: the cached value with its state, or nothing (a resource not read from the catalog). */
export type Loaded<V> = CachedValue<V> | undefined;

/** What a caller is shown. */
export interface Presented<B> {
  body: B;
  /** The answer depends on who asks (a policy applied): nothing may store it for others. */
  personal: boolean;
  /** Never stored by browsers although it is everyone's (a feed standing in for a variant it could not load). */
  noStore?: boolean;
  /** The body already rendered (an answer held per cache entry), or a tag known to stand for it. */
  rendered?: RenderedJson;
  etag?: string;
  /** Headers of its own (the feed's `x-reelgate-variant`). */
  headers?: Record<string, string>;
}

export interface ResourceDeclaration<In, V, B> {
  /** Names its cache window (`cache.<kind>`) and its row in cache-caps.ts. */
  kind: ResourceKind;
  /** The route's parameters and query, checked. */
  input(c: RequestContext): In;
  /** The policies that bind it, decided before the load: a refused caller gets 451 and spends nothing. */
  policies?(c: RequestContext, input: In): PolicyNames | Promise<PolicyNames>;
  /** A last check once the policies are known (`bound`: some policy applied), before anything is loaded. */
  beforeLoad?(c: RequestContext, input: In, bound: boolean): Promise<void> | undefined;
  /** The cache key of the value, under catalog/keys.ts (only the catalog's kinds are cached: feed, media, player). */
  key?(input: In): string;
  /** The value from the upstream on a miss, for `who` (its lane and freshness), through the budget. */
  fetch?(c: RequestContext, input: In, who: CallerContext, previous: V | undefined): Promise<V>;
  /** A load of its own instead of `key` + `fetch` (a feed: its variant, or its own feed standing in). */
  load?(c: RequestContext, input: In): Promise<CachedValue<V> & { standIn?: boolean }>;
  present(c: RequestContext, input: In, loaded: Loaded<V>, bound: boolean): Promise<Presented<B>> | Presented<B>;
}

const NO_POLICIES: PolicyNames = [];

/** Steps 2-3 for an input already read: the policies decided, then the value loaded (the embed pages stop here). */
export async function loadInput<In, V, B>(resource: ResourceDeclaration<In, V, B>, c: RequestContext, input: In):
  Promise<{ loaded: (CachedValue<V> & { standIn?: boolean }) | undefined; bound: boolean }> {
  // Steps that have nothing to do are not awaited (each await is a turn of the microtask queue on every HIT).
  const policies = resource.policies?.(c, input) ?? NO_POLICIES;
  const names = policies instanceof Promise ? await policies : policies;
  const bound = names.some(Boolean) ? await enforcePolicies(c, names) : false;
  const check = resource.beforeLoad?.(c, input, bound);
  if (check) await check;
  if (resource.load) return { loaded: await resource.load(c, input), bound };
  if (!resource.key || !resource.fetch) return { loaded: undefined, bound };
  const who = await publicCaller(c);
  const fetch = resource.fetch;
  const loaded = await cached<V>(c, {
    kind: resource.kind as CatalogKind,
    key: resource.key(input),
    load: (previous, freshness) => fetch(c, input, { ...who, ...freshness }, previous),
  });
  return { loaded, bound };
}

/** Steps 2-4 for an input already read: what this caller is shown, and the entry it came from. */
export async function resolveInput<In, V, B>(resource: ResourceDeclaration<In, V, B>, c: RequestContext, input: In):
  Promise<{ presented: Presented<B>; loaded: Loaded<V> }> {
  const { loaded, bound } = await loadInput(resource, c, input);
  const presented = await resource.present(c, input, loaded, bound);
  if (loaded?.standIn) presented.noStore = true;
  return { presented, loaded };
}

/** Step 1 of a site's single resource (`/api/sites/:site/<kind>s/:<kind>`): the configured site and the id, no query. */
export function siteAndId(c: RequestContext, kind: 'media' | 'player'): { site: SiteConfig; id: string } {
  const site = c.site(c.params.site);
  const id = requireId(c.params[kind], kind);
  readQuery(c.request, []);
  return { site, id };
}

/** The route handler of a resource: steps 1-5. */
export function serve<In, V, B>(resource: ResourceDeclaration<In, V, B>): (c: RequestContext) => Promise<Response> {
  return async (c) => {
    const { presented, loaded } = await resolveInput(resource, c, resource.input(c));
    if (loaded) c.timing.note('cache', loaded.state);
    const options = {
      cacheControl: cacheControlFor(resource.kind, c.config, presented.personal || presented.noStore === true),
      ...(loaded ? { cacheState: loaded.state, storedAt: loaded.storedAt } : {}),
      timing: c.timing,
    };
    const response = presented.rendered
      ? renderedResponse(c.request, presented.rendered, options)
      : await jsonResponse(c.request, presented.body, { ...options, ...(presented.etag ? { etag: presented.etag } : {}) });
    if (presented.headers) for (const [name, value] of Object.entries(presented.headers)) response.headers.set(name, value);
    return response;
  };
}
