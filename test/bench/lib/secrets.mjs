// The sandbox-only secrets every bench script starts the workers with: read from the committed `.dev.vars.example`,
// the same values `npm start` uses.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const example = fileURLToPath(new URL('../../../.dev.vars.example', import.meta.url));

export function sandboxSecrets() {
  const vars = {};
  for (const line of readFileSync(example, 'utf8').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match) vars[match[1]] = match[2];
  }
  if (!vars.API_SECRET || !vars.GEO_API_KEY || !vars.SIGNED_SITE_SECRET) {
    throw new Error('.dev.vars.example lacks API_SECRET, GEO_API_KEY or SIGNED_SITE_SECRET');
  }
  return { API_SECRET: vars.API_SECRET, GEO_API_KEY: vars.GEO_API_KEY, SIGNED_SITE_SECRET: vars.SIGNED_SITE_SECRET };
}
