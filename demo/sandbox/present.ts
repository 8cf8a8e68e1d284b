// Stored resources keep their delivery URLs as paths (/videos/..., /manifests/..., delivery-paths.ts); answers carry
// the caller's origin so the URLs work wherever the sandbox is reached from (http://localhost:8788 under `npm start`,
// http://sandbox.test in the tests). An external media's rendition keeps its source URL as given.

export function withOrigin<T>(doc: T, origin: string): T {
  return rewrite(doc, origin) as T;
}

function rewrite(value: unknown, origin: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, origin));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = key === 'delivery_url' && typeof member === 'string' && member.startsWith('/') && !member.startsWith('//')
      ? origin + member
      : key === 'setup_config' || key === 'custom_params' ? member : rewrite(member, origin);
  }
  return out;
}
