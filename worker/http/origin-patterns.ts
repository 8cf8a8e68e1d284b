/**
 * Which page origins may call the public API (`allowed_origins`). An entry is an exact origin
 * (`https://news.example`), `*` (any page), or a pattern for the origins a team spins up without redeploying:
 * - `https://*.staging.example` — any subdomain of `staging.example` (one label or more), never `staging.example`
 *   itself and never a look-alike such as `evilstaging.example`;
 * - `http://localhost:*` — any port of one host.
 * The scheme is always spelt out (an `http` pattern never admits `https` or the reverse).
 */
const SCHEMES = new Set(['http:', 'https:']);
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface OriginMatcher {
  (origin: string | null): boolean;
}

interface Pattern {
  scheme: string;
  /** The host after `*.` (subdomains of it), or the exact host. */
  host: string;
  subdomains: boolean;
  /** null: any port. '' : the scheme's default port. */
  port: string | null;
}

/** Parses one entry; throws an Error naming what is wrong (config.ts reports it with the entry's path). */
function parsePattern(entry: string): Pattern | 'any' | string {
  if (entry === '*') return 'any';
  const match = /^(https?):\/\/(\*\.)?([^/:*]+)(?::(\*|\d{1,5}))?$/.exec(entry);
  if (!match) throw new Error(`"${entry}" is not an origin (scheme://host[:port]) or a pattern (https://*.example.com, http://localhost:*)`);
  const [, scheme, star, host, port] = match;
  const labels = host!.split('.');
  if (host !== host!.toLowerCase() || !labels.every((label) => LABEL.test(label))) {
    throw new Error(`"${entry}": the host must be lower-case letters, digits, - and dots`);
  }
  if (star && labels.length < 2) throw new Error(`"${entry}": a subdomain pattern needs a domain with a dot, e.g. https://*.example.com`);
  if (!star && port !== '*') {
    // An exact origin: kept as the browser spells it (a default port dropped), compared as a string.
    const url = new URL(entry);
    if (url.origin !== entry) throw new Error(`"${entry}" is not spelt as browsers send it: use ${url.origin}`);
    return entry;
  }
  const defaultPort = scheme === 'https' ? '443' : '80';
  return { scheme: `${scheme}:`, host: host!, subdomains: Boolean(star), port: port === '*' ? null : port === defaultPort ? '' : (port ?? '') };
}

function matches(pattern: Pattern, url: URL): boolean {
  if (url.protocol !== pattern.scheme) return false;
  if (pattern.port !== null && url.port !== pattern.port) return false;
  return pattern.subdomains ? url.hostname.endsWith(`.${pattern.host}`) : url.hostname === pattern.host;
}

/** Validates every entry (throwing on the first bad one) and returns the matcher. */
export function originMatcher(entries: readonly string[]): OriginMatcher {
  let any = false;
  const exact = new Set<string>();
  const patterns: Pattern[] = [];
  for (const entry of entries) {
    const parsed = parsePattern(entry);
    if (parsed === 'any') any = true;
    else if (typeof parsed === 'string') exact.add(parsed);
    else patterns.push(parsed);
  }
  return (origin) => {
    if (!origin) return false;
    if (any || exact.has(origin)) return true;
    if (!patterns.length) return false;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    // Only a bare origin as browsers send it: no path, credentials or trailing dot games.
    if (url.origin !== origin || !SCHEMES.has(url.protocol)) return false;
    return patterns.some((pattern) => matches(pattern, url));
  };
}
