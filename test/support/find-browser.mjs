// The one place that decides which Chromium the component suites (test/run-browser-tests.mjs,
// web-test-runner.config.mjs) and the bench (test/bench/) drive, and with which flags.
//
// Order: CHROME_PATH; then a system Chromium or Chrome; then the Chromium that `npm ci` brings with
// @sparticuz/chromium (a devDependency that ships its binary inside the npm package, so no apt step and no download).
// That binary is unpacked once per install into node_modules/.cache/reelgate-chromium/<version>/ and renamed into
// place only when complete, so runs at the same time (suites, bench, another checkout) never see half a binary. The
// package's own executablePath() unpacks into the shared /tmp/chromium, whichever version put it there first; it is
// pointed at a private staging folder instead.
//
// `node test/support/find-browser.mjs` prints the browser that would be used; with `--check` it also starts it and
// asks it for its version over the DevTools protocol (exit 1 when it cannot), which .ci/run uses to decide whether it
// needs Debian's chromium at all.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const NPM_CHROMIUM = '@sparticuz/chromium';

/**
 * Flags for every launch. `--no-sandbox`: tests and CI run as root, where Chromium refuses its sandbox. The
 * background-networking ones: the machines here have no network but the package registries, and without them Chromium
 * keeps trying to reach Google's services. `--host-resolver-rules`: pages under test reach only loopback (localhost,
 * 127.0.0.1); every other name (the fixtures' cdn.example.test) fails at once instead of waiting on a DNS server that
 * may never answer - with Chromium's own resolver each such lookup took 5 s here. The npm Chromium needs nothing
 * beyond these (it runs without the `--single-process` its package suggests for AWS Lambda).
 */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
]);

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const SYSTEM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable', '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium'];

/** The usual install paths, then each browser name on PATH. */
export function systemCandidates(env = process.env) {
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean)
    .flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name)));
  return [...SYSTEM_PATHS, ...onPath];
}

const isFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The browser to launch: `{ path, source }` with source 'CHROME_PATH', 'system' or '@sparticuz/chromium'. Throws
 * when CHROME_PATH names no file (a typo should not quietly test another browser) or when nothing is found.
 * `env`, `system` and `npm` are there for the tests of this order.
 */
export function findBrowser({ env = process.env, system = systemCandidates(env), npm = npmChromium } = {}) {
  if (env.CHROME_PATH) {
    if (!isFile(env.CHROME_PATH)) throw new Error(`CHROME_PATH is set to ${env.CHROME_PATH}, which is not a file.`);
    return { path: env.CHROME_PATH, source: 'CHROME_PATH' };
  }
  const installed = system.find(isFile);
  if (installed) return { path: installed, source: 'system' };
  const bundled = npm();
  if (bundled) return { path: bundled, source: NPM_CHROMIUM };
  throw new Error(`no Chrome or Chromium found: ${NPM_CHROMIUM} is not installed (run \`npm ci\`), no system browser ` +
    'is installed, and CHROME_PATH is not set.');
}

/** The path of the Chromium shipped in @sparticuz/chromium, unpacked on first use; null when the package is absent. */
export function npmChromium() {
  let entry;
  try {
    entry = createRequire(join(root, 'package.json')).resolve(NPM_CHROMIUM);
  } catch {
    return null;
  }
  // build/index.js → the package folder (its exports do not include package.json).
  const packageDir = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const cache = join(root, 'node_modules', '.cache', 'reelgate-chromium');
  const home = join(cache, version);
  const binary = join(home, 'chromium');
  if (isFile(binary)) return binary;

  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, `.unpacking-${version}-`));
  try {
    // In a child so that TMPDIR (where the package unpacks) changes for it alone.
    execFileSync(process.execPath, ['--input-type=module', '-e',
      `import chromium from '${NPM_CHROMIUM}'; process.stdout.write(await chromium.executablePath());`],
    { cwd: root, env: { ...process.env, TMPDIR: staging }, stdio: ['ignore', 'pipe', 'pipe'] });
    if (!isFile(join(staging, 'chromium'))) throw new Error(`${NPM_CHROMIUM} unpacked no chromium into ${staging}`);
    try {
      renameSync(staging, home);
    } catch (error) {
      // Another run finished first: theirs is complete, use it.
      if (!isFile(binary)) throw error;
    }
  } catch (error) {
    throw new Error(`could not unpack the Chromium of ${NPM_CHROMIUM} ${version}: ${error.stderr ?? error.message}`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}

/**
 * Starts the browser with CHROMIUM_ARGS and asks it for its version over the DevTools protocol. Resolves with the
 * `Browser` string it reports; rejects with its output when it does not start within `timeoutMs`.
 */
export async function checkLaunch(path, { timeoutMs = 30_000 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'reelgate-browser-check-'));
  const child = spawn(path, [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  try {
    const endpoint = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no DevTools endpoint within ${timeoutMs} ms`)), timeoutMs);
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk) => {
        output += chunk;
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[1]));
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${signal ?? `code ${code}`}) before it listened`));
      });
    });
    const response = await fetch(`http://${endpoint.host}/json/version`, { signal: AbortSignal.timeout(10_000) });
    const { Browser: browser } = await response.json();
    if (!browser) throw new Error('its /json/version names no Browser');
    return browser;
  } catch (error) {
    throw new Error(`${path} did not start: ${error.message}\n${output.slice(-1500)}`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
    rmSync(profile, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { path, source } = findBrowser();
    if (process.argv.includes('--check')) console.log(`${await checkLaunch(path)} at ${path} (${source})`);
    else console.log(`${path} (${source})`);
  } catch (error) {
    console.error(`find-browser: ${error.message}`);
    process.exit(1);
  }
}
