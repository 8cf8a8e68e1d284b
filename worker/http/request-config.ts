/**
 * Where the worker reads its configuration (config.ts parses it, once per isolate), and nowhere else.
 *
 * A request's configuration is read once per request: the front door reads it first (so the
 * metrics know whether to count) and keeps it on the request; the site's door, the gateway and the answer's headers
 * take it from there. A configuration that cannot be read is the operator's to fix: every asker gets the same error
 * (a ConfigError, which the front door's catch logs and answers), read once too.
 */
import { getConfig, type Config } from '../config.ts';
import type { Env } from '../env.ts';

const READ = Symbol('reelgate.config');

type Held = { config: Config } | { error: unknown };
type Carrier = Request & { [READ]?: Held };

function read(request: Request, env: Pick<Env, 'REELGATE_CONFIG'>): Held {
  const carrier = request as Carrier;
  if (!carrier[READ]) {
    try {
      carrier[READ] = { config: getConfig(env) };
    } catch (error) {
      carrier[READ] = { error };
    }
  }
  return carrier[READ];
}

/** The request's configuration; throws the configuration's error when it cannot be read. */
export function requestConfig(request: Request, env: Pick<Env, 'REELGATE_CONFIG'>): Config {
  const held = read(request, env);
  if ('error' in held) throw held.error;
  return held.config;
}

/**
 * The configuration of a Durable Object (the budget object), which serves no request of its own: read on every use,
 * so a new configuration applies at once (the parse is kept per isolate, so a use costs a comparison).
 */
export function objectConfig(env: Pick<Env, 'REELGATE_CONFIG'>): Config {
  return getConfig(env);
}

/** The request's configuration, or null when it cannot be read (the answer's headers are set all the same). */
export function requestConfigOrNull(request: Request, env: Pick<Env, 'REELGATE_CONFIG'>): Config | null {
  const held = read(request, env);
  return 'config' in held ? held.config : null;
}
