/**
 * Which catalog strings may become a link. The platform types a media's `permalink` and a playlist's `link` as plain
 * strings, so anything can be stored there, `javascript:alert(document.domain)//` included. The worker lists (in its
 * answers, its rendered pages, its JSON-LD, its oEmbed) and the elements expose only absolute `http:` and `https:`
 * URLs; anything else (another scheme, a relative or malformed URL, credentials in the URL) is no link at all: null.
 */

const MAX_LINK_LENGTH = 2048;

/** The URL as the WHATWG parser spells it when it is an absolute http(s) URL without credentials, else null. */
export function httpUrl(value: unknown): string | null {
  try {
    // No base: a relative string is no link (its meaning would depend on the page that shows it). Not a string, too
    // long, unreadable: no link either.
    const url = new URL(typeof value === 'string' && value.length <= MAX_LINK_LENGTH ? value : '?');
    return /^https?:$/.test(url.protocol) && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Whether a browser reads `value` as an http(s) URL (its scheme is what precedes the first `:`, so nothing after
 * `http://` can change it): the elements' check, as small as the embed bundle needs it. The worker writes `httpUrl`'s
 * spelling, which passes it.
 */
export function isHttpLink(value: unknown): boolean {
  // `test` reads a non-string as its text: `null`, a number, an object never start so.
  return /^https?:\/\//i.test(value as string);
}
