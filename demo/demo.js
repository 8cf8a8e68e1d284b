// The demo page's own script (the page's CSP allows no inline script). It runs before the embed bundle:
// 1. applies the simulated visitor address saved in this tab (sessionStorage) as `window.reelgate.devIp`, which the
//    elements send as `x-reelgate-dev-ip`; a worker with DEV_MODE on treats it as the caller's address;
// 2. finds out whether the worker is in DEV_MODE (it answers two documentation addresses with their two countries)
//    and only then shows the location switcher (fixed to the bottom of the window, so showing it moves nothing);
//    changing it reloads the page so every element asks again.
// 3. says in that bar where the worker places the visitor and what each gate on the page decides, and why. It asks
//    the worker as the gates do: the same address (the same `x-reelgate-dev-ip`, or none for this machine's own) and
//    the same question (`/api/gate/<policy>`), so the bar and the gate cannot disagree (issue 27, item 5: the bar used
//    to name Cloudflare's view of the connection, "Austin", while the gate, which also needs the proxy class only the
//    Geo API gives, could not decide on it).
// 4. switches the page's language with the "Video language" menu (language.js set it from `?lang=` before the first
//    paint): the elements render again in it, with no reload (components/docs/languages.md).
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

async function gate(policy, devIp) {
  const response = await fetch(`/api/gate/${encodeURIComponent(policy)}`, { headers: devIp ? { [DEV_HEADER]: devIp } : {} });
  if (!response.ok) throw new Error(`gate ${response.status}`);
  return response.json();
}

const CONTINENTS = { AF: 'Africa', AN: 'Antarctica', AS: 'Asia', EU: 'Europe', NA: 'North America', OC: 'Oceania',
  SA: 'South America' };

function countryName(code) {
  if (!code) return null;
  const lang = document.documentElement.lang || 'en';
  try {
    return new Intl.DisplayNames([lang], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const PROXIES = { tor_exit: 'a Tor exit node', tor_relay: 'a Tor relay', vpn: 'a VPN' };

/** What kind of proxy the Geo API says the address is, in words, or null when it is none (or unknown). */
function proxyName(proxy) {
  const type = proxy?.type ? `${/^[aeiou]/i.test(proxy.type) ? 'an' : 'a'} ${proxy.type} proxy` : null;
  if (!proxy?.identification) return type;
  const named = PROXIES[proxy.identification] ?? `a ${proxy.identification.replace(/_/g, ' ')}`;
  return type ? `${named} (${type})` : named;
}

/** Who is asking, as the gates ask: the simulated address, or this machine's own (the connection's). */
function visitorName(devIp) {
  return devIp ? devIp : 'this machine\u2019s own address';
}

/** Where the worker places the visitor, and on what (the Geo API, or Cloudflare's view of the connection alone). */
function describeWhere(answer, devIp) {
  const who = visitorName(devIp);
  const country = countryName(answer.country);
  const place = [answer.city, country].filter(Boolean).join(', ');
  if (answer.source === 'none' || !country) {
    return `The worker cannot locate ${who}: the Geo API has no answer for it.`;
  }
  if (answer.source === 'cf') {
    // Only this machine's own address: a simulated one is never judged by the connection's view (worker/http/visitor.ts).
    return `The worker places ${who} in ${place} by Cloudflare\u2019s view of the connection alone (the Geo API, the ` +
      'one source of a proxy class, is never asked about a private address).';
  }
  const proxy = proxyName(answer.proxy);
  return `The worker places ${who} in ${place} (Geo API)${proxy ? `, through ${proxy}` : ', not a proxy'}.`;
}

/** A gate's decision for this visitor and the rule that took it, from the worker's own answer. */
function describeDecision(decision, where) {
  const country = decision.country ? `${countryName(decision.country)} (${decision.country})` : 'no country';
  const continent = where.continent ? `${CONTINENTS[where.continent] ?? where.continent} (${where.continent})` : 'no continent';
  const missing = !decision.country ? 'no country' : where.source !== 'geo-api' ? 'no proxy class' : 'no continent';
  const verdict = decision.allowed ? 'allowed' : 'refused';
  const why = {
    allowed: decision.complete
      ? `${country}, in ${continent}, ${proxyName(decision.proxy) ?? 'not a proxy'}: no rule of the policy refuses it`
      : `the location is not fully known (${missing}) and the policy\u2019s rule for an unknown location is allow`,
    location_unknown: `the location is not fully known (${missing}) and the policy\u2019s rule for an unknown location is deny`,
    proxy_denied: `the address is ${proxyName(decision.proxy) ?? 'a proxy'}, which the policy denies`,
    country_denied: `the policy denies ${country}`,
    country_not_allowed: `${country} is not among the countries the policy allows`,
    continent_denied: `the policy denies ${continent}, where ${country} is`,
    continent_not_allowed: `${continent}, where ${country} is, is not among the continents the policy allows`,
  }[decision.reason] ?? `reason \u201c${decision.reason}\u201d`;
  return `Gate \u201c${decision.policy}\u201d: ${verdict}, because ${why}.`;
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
  // The policies of the gates on this page, each asked once.
  const policies = [...new Set([...document.querySelectorAll('reel-geo-gate[policy]')].map((g) => g.getAttribute('policy')))];
  try {
    const [located, ...decisions] = await Promise.all([geo(stored), ...policies.map((policy) => gate(policy, stored))]);
    where.textContent = [describeWhere(located, stored), ...decisions.map((d) => describeDecision(d, located))].join(' ');
  } catch {
    where.textContent = `The worker could not say where ${visitorName(stored)} is, or what the gates decide for it.`;
  }
  // Shown complete: a bar that grew as its text arrived would move (it is fixed to the bottom, so it grows upwards).
  bar.hidden = false;
}

const RIGHT_TO_LEFT = ['ar', 'fa', 'he', 'ur'];

/** The page in `lang`: its `<html lang>` (which the elements follow) and, for Arabic, right to left. */
function setLanguage(lang) {
  document.documentElement.lang = lang;
  document.documentElement.dir = RIGHT_TO_LEFT.includes(lang.split('-')[0]) ? 'rtl' : 'ltr';
  dateline();
}

function setUpLanguages() {
  const select = document.getElementById('page-lang');
  select.value = document.documentElement.lang;
  if (!select.value) select.value = 'en-GB';
  select.addEventListener('change', () => {
    setLanguage(select.value);
    const url = new URL(location.href);
    if (select.value === 'en-GB') url.searchParams.delete('lang');
    else url.searchParams.set('lang', select.value);
    history.replaceState(null, '', url);
  });
}

function dateline() {
  const lang = document.documentElement.lang || 'en';
  document.getElementById('today').textContent = new Intl.DateTimeFormat(lang, { dateStyle: 'full' }).format(new Date());
}

dateline();
const ready = () => {
  setUpLanguages();
  void setUpSwitcher();
};
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready, { once: true });
else ready();
