// Scripted answers (`/_sandbox/scripted`): a test states what the platform answers to one v2 route, for some of its
// parameters or all, for the next `times` calls or until cleared, and sees what the worker makes of an answer the
// seed would never give. A scripted answer stands in for the route's handler only: the credential, the rate window,
// the statistics and the query rules still apply, and the answer still carries its rate headers. The conformance gate
// (test/platform/) still checks it: an answer the platform's definition rules out reaches the worker as the gate's 500.
// The Delivery API's two JSON routes (`GET /v2/media/:media`, `GET /v2/playlists/:playlist`) take scripts the same
// way: there the site's URL signing and the query rules still apply, and `delivery_calls` counts them.
import { DELIVERY_API_ROUTES } from './delivery-paths.ts';
import { errorResponse, HttpError, invalid, json } from './http.ts';
import { ROUTES, type Route } from './routes.ts';
import type { Store } from './store.ts';

/** What a script names: a route's method and pattern. */
type Scriptable = Pick<Route, 'method' | 'pattern'>;
const SCRIPTABLE: readonly Scriptable[] = [...ROUTES, ...DELIVERY_API_ROUTES];

/** One scripted answer, as kept; its body lives under its own key (`bodyKey`), read only when it answers. */
interface Script {
  /** `GET /v2/sites/:site/media/:media/`: a route as /_sandbox/stats names it. */
  route: string;
  /** Only calls whose path parameters have these values (all of them, when absent). */
  params: Record<string, string>;
  status: number;
  /** Calls left; null until cleared. */
  times: number | null;
  bodyKey: string;
}

const INDEX = 'scripted';
const MAX_SCRIPTS = 100;
const KNOWN = ['route', 'params', 'status', 'body', 'times'];

const label = (route: Scriptable): string => `${route.method} ${route.pattern}`;
const paramNames = (route: Scriptable): string[] => route.pattern.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));

function scripts(store: Store): Script[] {
  return store.getMeta<Script[]>(INDEX) ?? [];
}

/** What the control shows of the scripts: everything but the bodies. */
function listing(list: Script[]): Response {
  return json({ scripted: list.map(({ route, params, status, times }) => ({ route, params, status, times })) });
}

/**
 * `GET` lists the scripts, `POST` adds one (replacing one of the same route and parameters) or, as
 * `{"scripts": [...]}`, several at once (all or none), `DELETE` clears them.
 */
export function scriptedControl(store: Store, method: string, body: Record<string, unknown>): Response {
  if (method === 'GET') return listing(scripts(store));
  if (method === 'DELETE') {
    for (const script of scripts(store)) store.deleteMeta(script.bodyKey);
    store.setMeta(INDEX, []);
    return listing([]);
  }
  if (method !== 'POST') {
    return errorResponse(405, 'method_not_allowed', `${method} is not allowed here; allowed: GET, POST, DELETE.`,
      { allow: 'GET, POST, DELETE' });
  }
  const several = Object.keys(body).length === 1 && Array.isArray(body.scripts);
  const each = several ? body.scripts as unknown[] : [body];
  if (several && (each.length < 1 || each.length > MAX_SCRIPTS)) {
    throw invalid('invalid_parameter', `scripts must list from 1 to ${MAX_SCRIPTS} scripted answers.`);
  }
  for (const script of each) add(store, script);
  return listing(scripts(store));
}

/** Adds one script, checked; a refusal is thrown (the control's transaction then keeps none of the call's). */
function add(store: Store, body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('invalid_parameter', 'A script is a JSON object.');
  const script = body as Record<string, unknown>;
  for (const key of Object.keys(script)) {
    if (!KNOWN.includes(key)) throw invalid('invalid_parameter', `Unknown option '${key.slice(0, 40)}'; known: ${KNOWN.join(', ')}.`);
  }
  const route = SCRIPTABLE.find((r) => label(r) === script.route);
  if (!route) {
    throw invalid('invalid_parameter', 'route must name a v2 route as /_sandbox/stats does, e.g. "GET /v2/sites/:site/media/:media/", '
      + `or a Delivery API route (${DELIVERY_API_ROUTES.map(label).join(', ')}).`);
  }
  const params = script.params ?? {};
  const names = paramNames(route);
  if (typeof params !== 'object' || params === null || Array.isArray(params)
    || !Object.entries(params).every(([name, value]) => names.includes(name) && typeof value === 'string')) {
    throw invalid('invalid_parameter', `params must map some of the route's parameters (${names.join(', ') || 'none'}) to strings.`);
  }
  const status = script.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    throw invalid('invalid_parameter', 'status must be an integer from 200 to 599.');
  }
  const times = script.times ?? null;
  if (times !== null && (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 100_000)) {
    throw invalid('invalid_parameter', 'times must be an integer from 1 to 100000 (leave it out for "until cleared").');
  }
  const wanted = sorted(params as Record<string, string>);
  const same = (s: Script) => s.route === label(route) && JSON.stringify(s.params) === JSON.stringify(wanted);
  const kept = scripts(store).filter((s) => !same(s));
  if (kept.length >= MAX_SCRIPTS) {
    throw new HttpError(409, 'too_many_scripts', `At most ${MAX_SCRIPTS} scripted answers at once; DELETE clears them.`);
  }
  for (const s of scripts(store)) if (same(s)) store.deleteMeta(s.bodyKey);
  const bodyKey = `${INDEX}:${crypto.randomUUID()}`;
  // The body as it will be sent: absent (a 204) or any JSON value.
  store.setMeta(bodyKey, script.body === undefined ? null : JSON.stringify(script.body));
  store.setMeta(INDEX, [...kept, { route: label(route), params: wanted, status, times: times as number | null, bodyKey }]);
}

function sorted(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The scripted answer to a call of `route` with `params`, or null when none is set: the newest script that matches,
 * one of its `times` spent.
 */
export function scriptedAnswer(store: Store, route: Scriptable, params: Record<string, string>): Response | null {
  const list = scripts(store);
  if (!list.length) return null;
  const name = label(route);
  let index = -1;
  for (let i = list.length - 1; i >= 0 && index < 0; i--) {
    const s = list[i]!;
    if (s.route === name && Object.entries(s.params).every(([k, v]) => params[k] === v)) index = i;
  }
  if (index < 0) return null;
  const script = list[index]!;
  const text = store.getMeta<string | null>(script.bodyKey);
  if (script.times !== null) {
    if (script.times <= 1) {
      list.splice(index, 1);
      store.deleteMeta(script.bodyKey);
    } else {
      list[index] = { ...script, times: script.times - 1 };
    }
    store.setMeta(INDEX, list);
  }
  return text === null
    ? new Response(null, { status: script.status })
    : new Response(text, { status: script.status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}
