/** Headers every answer carries; the demo page gets a CSP of its own, everything else may not be framed at all. */
const COMMON: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'cross-origin-opener-policy': 'same-origin',
};

/** The demo page: its own scripts only; media and posters from the platform's delivery hosts. */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

export function applySecurityHeaders(request: Request, response: Response): void {
  const headers = response.headers;
  for (const [name, value] of Object.entries(COMMON)) headers.set(name, value);
  const html = (headers.get('content-type') ?? '').includes('text/html');
  if (html) {
    headers.set('content-security-policy', PAGE_CSP);
    headers.set('x-frame-options', 'SAMEORIGIN');
    headers.set('referrer-policy', 'strict-origin-when-cross-origin');
  } else {
    headers.set('content-security-policy', DATA_CSP);
    headers.set('x-frame-options', 'DENY');
    headers.set('referrer-policy', 'no-referrer');
    // The embed script and the API are meant to be used by other sites' pages.
    headers.set('cross-origin-resource-policy', 'cross-origin');
  }
  if (new URL(request.url).protocol === 'https:') {
    headers.set('strict-transport-security', 'max-age=31536000; includeSubDomains');
  }
}
