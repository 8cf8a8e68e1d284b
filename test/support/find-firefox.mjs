// The one place that decides which Firefox the Firefox suite (test/firefox/) drives, and how it is launched:
// Puppeteer (puppeteer-core) over WebDriver BiDi, headless, with a throwaway profile Puppeteer makes and removes.
//
// Order: FIREFOX_PATH; then Debian's /usr/bin/firefox-esr, /usr/bin/firefox (and macOS's Firefox.app); then
// `firefox-esr` or `firefox` on PATH. Unlike Chromium, no Firefox comes with `npm ci`: a machine without one skips the
// suite (test/firefox/run.mjs says so, and how to install it), and .ci/run installs Debian's firefox-esr.
//
// FIREFOX_PATH naming no file is an error, never a skip: a typo must not quietly test nothing.
// REELGATE_FIREFOX=none behaves as a machine without Firefox (it wins over FIREFOX_PATH and what is installed), so the
// skip can be seen where Firefox is installed.
//
// `node test/support/find-firefox.mjs` prints the Firefox that would be used (exit 1 when there is none); with
// `--check` it also launches it through Puppeteer and prints the version it reports, which .ci/run uses to decide
// whether it needs to install firefox-esr.
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const INSTALL_HINT = 'sudo apt-get install -y firefox-esr (or set FIREFOX_PATH)';

const SYSTEM_PATHS = ['/usr/bin/firefox-esr', '/usr/bin/firefox', '/Applications/Firefox.app/Contents/MacOS/firefox'];
const NAMES = ['firefox-esr', 'firefox'];

const isFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The usual install paths, then each name on PATH. */
export function firefoxCandidates(env = process.env) {
  const onPath = (env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => NAMES.map((name) => join(dir, name)));
  return [...SYSTEM_PATHS, ...onPath];
}

/**
 * `{ path, source }` (source 'FIREFOX_PATH' or 'system'), or null when no Firefox is installed. Throws when
 * FIREFOX_PATH is set but names no file.
 */
export function findFirefox({ env = process.env, candidates = firefoxCandidates(env) } = {}) {
  if (env.REELGATE_FIREFOX === 'none') return null;
  if (env.FIREFOX_PATH) {
    if (!isFile(env.FIREFOX_PATH)) throw new Error(`FIREFOX_PATH is set to ${env.FIREFOX_PATH}, which is not a file.`);
    return { path: env.FIREFOX_PATH, source: 'FIREFOX_PATH' };
  }
  const installed = candidates.find(isFile);
  return installed ? { path: installed, source: 'system' } : null;
}

/** Puppeteer's launch options for this Firefox. */
export function launchOptions(executablePath) {
  return {
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath,
    headless: true,
    // The window the tests lay the player out in (the player is sized inside it).
    defaultViewport: { width: 1280, height: 800 },
    extraPrefsFirefox: {
      // Muted playback starts without a gesture anyway; this keeps an unmuted play() from being the reason a test fails.
      'media.autoplay.default': 0,
    },
  };
}

/** Launches Firefox through Puppeteer over WebDriver BiDi. */
export async function launchFirefox(executablePath, { timeoutMs = 60_000 } = {}) {
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({ ...launchOptions(executablePath), timeout: timeoutMs });
}

/** Launches it, asks it for its version and closes it. Rejects when it does not start within `timeoutMs`. */
export async function checkFirefox(executablePath, { timeoutMs = 60_000 } = {}) {
  const browser = await launchFirefox(executablePath, { timeoutMs });
  try {
    return await browser.version();
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const found = findFirefox();
    if (!found) {
      console.error(`find-firefox: no Firefox found. Install it with: ${INSTALL_HINT}`);
      process.exit(1);
    }
    if (process.argv.includes('--check')) console.log(`${await checkFirefox(found.path)} at ${found.path} (${found.source})`);
    else console.log(`${found.path} (${found.source})`);
  } catch (error) {
    console.error(`find-firefox: ${error.message}`);
    process.exit(1);
  }
}
