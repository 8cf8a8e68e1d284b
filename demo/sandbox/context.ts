// What every v2 handler receives.
import type { Envelope } from './body.ts';
import { notFound } from './http.ts';
import type { Store } from './store.ts';

export interface RouteContext {
  store: Store;
  request: Request;
  url: URL;
  /** The origin the caller reached the sandbox on, prefixed to delivery URLs. */
  origin: string;
  /** Path parameters by name (`site`, `media`, `rendition`, `track`, `thumbnail`, `playlist`, `playlist_type`, `player`). */
  params: Record<string, string>;
  now: Date;
  /** The checked request body (write routes only). */
  body: Envelope & Record<string, unknown>;
  /** The `changed_playlist_shape` fault is on (controls.ts): typed playlist answers move their rules. */
  changedPlaylistShape?: boolean;
  /** The `dropped_playlist_rules` fault is on: typed filtered playlist answers lose their filter objects. */
  droppedPlaylistRules?: boolean;
}

export type Handler = (ctx: RouteContext) => Response | Promise<Response>;

export function param(ctx: RouteContext, name: string): string {
  return ctx.params[name] ?? '';
}

/** The site of the path, or 404 when the platform has no such site. */
export function site(ctx: RouteContext): string {
  const id = param(ctx, 'site');
  if (!ctx.store.get('site', id, id)) throw notFound(`Site '${id}'`);
  return id;
}

export function nowIso(ctx: RouteContext): string {
  return ctx.now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
