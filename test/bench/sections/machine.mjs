// Section 5: what the figures were measured on, so they are compared only where they are comparable.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';

const ROOT = new URL('../../../', import.meta.url);

function packageVersion(name) {
  try {
    // Read from node_modules directly: some packages (lit) do not export their package.json.
    return JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, ROOT), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

export function chromiumVersion(executable) {
  try {
    // Debian's wrapper script prints the version of the real binary.
    return execFileSync(executable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim().replace(/\s+built on.*$/, '');
  } catch {
    return 'unknown';
  }
}

export function machine({ chromium }) {
  const cores = cpus();
  return {
    cores: cores.length,
    cpu: cores[0]?.model?.trim() ?? 'unknown',
    memory_gib: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
    wrangler: packageVersion('wrangler'),
    workerd: packageVersion('workerd'),
    chromium: chromiumVersion(chromium),
    autocannon: packageVersion('autocannon'),
    esbuild: packageVersion('esbuild'),
    lit: packageVersion('lit'),
  };
}
