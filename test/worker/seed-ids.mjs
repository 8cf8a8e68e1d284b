// The sandbox's seed is deterministic, so the ids the worker's test configuration binds policies to can be known
// before any worker starts: run the seed into a recording store and read them back.
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export async function seededCatalog() {
  const outfile = here('../../.build/sandbox-seed.mjs');
  await build({ entryPoints: [here('../../demo/sandbox/seed.ts')], outfile, bundle: true, format: 'esm',
    platform: 'neutral', target: 'es2022', logLevel: 'warning' });
  const { seedCatalog } = await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
  const sites = new Map();
  const store = {
    put(kind, site, parent, doc) {
      if (kind === 'site') sites.set(doc.id, { id: doc.id, media: [], playlists: [], players: [] });
      else if (kind === 'media') sites.get(site).media.push(doc);
      else if (kind === 'playlist') sites.get(site).playlists.push(doc);
      else if (kind === 'player') sites.get(site).players.push(doc);
    },
  };
  seedCatalog(store);
  return [...sites.values()];
}
