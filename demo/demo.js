// The demo page's own script (the page's CSP allows no inline script). It runs before the embed bundle:
// 1. applies the simulated visitor address saved in this tab (sessionStorage) as `window.reelgate.devIp`, which the
//    elements send as `x-reelgate-dev-ip`; a worker with DEV_MODE on treats it as the caller's address;
// 2. finds out whether the worker is in DEV_MODE (it answers two documentation addresses with their two countries)
//    and only then shows the location switcher (fixed to the bottom of the window, so showing it moves nothing);
//    changing it reloads the page so every element asks again.
const KEY = 'reelgate.devIp';
const DEV_HEADER = 'x-reelgate-dev-ip';
const PROBES = [['192.0.2.30', 'DE'], ['192.0.2.20', 'US']];

const stored = sessionStorage.getItem(KEY);
window.reelgate = { ...window.reelgate, devIp: stored || null };

async function geo(devIp) {
  const response = await fetch('/api/geo', { headers: devIp ? { [DEV_HEADER]: devIp } : {} });
  if (!response.ok) throw new Error(`geo ${response.status}`);
  return response.json();
}

async function devModeOn() {
  try {
    const answers = await Promise.all(PROBES.map(([ip]) => geo(ip)));
    return answers.every((answer, i) => answer.country === PROBES[i][1]);
  } catch {
    return false;
  }
}

function describe(answer) {
  const lang = document.documentElement.lang || 'en';
  const country = answer.country
    ? new Intl.DisplayNames([lang], { type: 'region' }).of(answer.country) : 'an unknown place';
  const place = [answer.city, country].filter(Boolean).join(', ');
  const proxy = answer.proxy?.identification ? ` through a ${answer.proxy.identification.replace('_', ' ')} proxy` : '';
  return `The worker sees a visitor from ${place}${proxy}.`;
}

async function setUpSwitcher() {
  const bar = document.getElementById('devbar');
  const select = document.getElementById('dev-location');
  const where = document.getElementById('dev-where');
  if (!(await devModeOn())) {
    // Nothing to simulate: never send a stale address to a worker that is not in dev mode.
    sessionStorage.removeItem(KEY);
    window.reelgate.devIp = null;
    return;
  }
  select.value = stored ?? '';
  if (select.value !== (stored ?? '')) select.value = '';
  select.addEventListener('change', () => {
    if (select.value) sessionStorage.setItem(KEY, select.value);
    else sessionStorage.removeItem(KEY);
    location.reload();
  });
  try {
    where.textContent = describe(await geo(stored));
  } catch {
    where.textContent = 'The worker could not say where this visitor is.';
  }
  // Shown complete: a bar that grew as its text arrived would move (it is fixed to the bottom, so it grows upwards).
  bar.hidden = false;
}

function dateline() {
  const lang = document.documentElement.lang || 'en';
  document.getElementById('today').textContent = new Intl.DateTimeFormat(lang, { dateStyle: 'full' }).format(new Date());
}

dateline();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', setUpSwitcher, { once: true });
else void setUpSwitcher();
