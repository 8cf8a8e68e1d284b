/**
 * The operator console (`<reel-console>`, components/console/) against a fake /admin API that follows the contract
 * (/work/notes/console-contract.md): sessions with a CSRF value, metrics with known numbers, keys, the audit
 * trail, purge, the configuration with warnings. The console is not part of the embed, so it is imported from source
 * in both modes (REELGATE_TEST_BUNDLE=1 swaps only the embed's elements for the bundle).
 */
import { aTimeout, expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../components/console/define.ts';
import type { ReelConsole } from '../../components/console/reel-console.ts';
import type { ReelChart } from '../../components/console/reel-chart.ts';
import { $, $$ } from './support/dom.ts';

const TOKEN = 'admin-token-5b1f0c7e9d';
const CSRF = 'csrf-7a3c91';
const SITE = 'vbQmzoYd';
const OTHER_SITE = '93QufRA9';
/** The current minute of the fake metrics (epoch seconds, a minute's start). */
const NOW = Math.floor(Date.now() / 60_000) * 60;

interface AdminCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: any;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const refusal = (status: number, code: string, description: string, headers: Record<string, string> = {}) =>
  json({ errors: [{ code, description }] }, status, headers);

/** A series as the contract gives it: sparse points and their sum. */
function series(metric: string, labels: Record<string, string>, points: Array<[number, number]>) {
  return { metric, labels, points: points.map(([ago, v]) => [NOW - ago * 60, v]), total: points.reduce((s, [, v]) => s + v, 0) };
}
/** A series whose points do not matter, only its total (one point, a few minutes ago). */
const counted = (metric: string, labels: Record<string, string>, total: number) => series(metric, labels, [[3, total]]);

function metrics(minutes: number) {
  return {
    generated_at: new Date(NOW * 1000 + 15_000).toISOString(),
    from: NOW - (minutes - 1) * 60, to: NOW, step_seconds: 60, retention_hours: 25,
    budget: { rate_per_minute: 50, burst: 5, geo_rate_per_minute: 40, public_floor: 0.3, gateway_floor: 0.3 },
    series: [
      series('upstream_calls', { side: 'public', api: 'v2' }, [[2, 10], [1, 20], [0, 7]]),
      series('upstream_calls', { side: 'gateway', api: 'v2' }, [[1, 5], [0, 3]]),
      series('upstream_calls', { side: 'public', api: 'geo' }, [[0, 4]]),
      series('budget_waits', { side: 'public' }, [[1, 6]]),
      series('budget_refusals', { side: 'public' }, [[1, 2], [0, 1]]),
      series('upstream_errors', { api: 'v2', kind: 'status' }, [[1, 1]]),
      series('upstream_throttled', { api: 'v2' }, [[1, 2]]),
      counted('cache', { kind: 'feed', state: 'HIT' }, 60),
      counted('cache', { kind: 'feed', state: 'STALE' }, 10),
      counted('cache', { kind: 'feed', state: 'REVALIDATED' }, 10),
      counted('cache', { kind: 'feed', state: 'MISS' }, 20),
      counted('cache', { kind: 'media', state: 'HIT' }, 30),
      counted('cache', { kind: 'media', state: 'MISS' }, 10),
      counted('geo_decisions', { policy: 'europe', decision: 'allowed', by: 'rule' }, 40),
      counted('geo_decisions', { policy: 'europe', decision: 'refused', by: 'rule' }, 12),
      counted('geo_decisions', { policy: 'europe', decision: 'refused', by: 'unknown' }, 3),
      series('geo_decisions', { policy: 'no-anonymous-proxies', decision: 'refused', by: 'rule' }, [[0, 2]]),
      counted('geo_refusals_by_country', { country: 'JP' }, 4),
      counted('geo_refusals_by_country', { country: 'US' }, 9),
      counted('geo_refusals_by_country', { country: 'unknown' }, 2),
      series('playback_bytes', {}, [[1, 1_500_000], [0, 2_500_000]]),
      counted('playback_requests', {}, 40),
      counted('playback_refusals', { code: 'expired' }, 2),
      series('requests', { door: 'api', class: '2xx' }, [[1, 88], [0, 12]]),
      counted('requests', { door: 'api', class: '4xx' }, 5),
      counted('requests', { door: 'playback', class: '2xx' }, 40),
      counted('requests', { door: 'v2', class: '5xx' }, 1),
      series('gateway_calls', { key: 'key_cms' }, [[1, 23], [0, 2]]),
      counted('gateway_errors', { key: 'key_cms' }, 3),
    ],
  };
}

const CONFIG = {
  sites: {
    [SITE]: { playlists: ['DGRTLuft'] },
    [OTHER_SITE]: { policy: 'europe' },
    nvsLN98U: { url_signing: { secret_binding: 'SIGNED_SITE_SECRET', configured: true, lifetime_minutes: 60, window_seconds: 300 } },
  },
  policies: {
    europe: { allow_continents: ['EU'], deny_proxy_identifications: ['tor_exit', 'tor_relay'], unknown: 'deny' },
  },
  allowed_origins: ['http://localhost:8787'],
  budget: { rate_per_minute: 50, burst: 5, max_wait_ms: 5000 },
  cache: { feed: { fresh_seconds: 60, stale_seconds: 3600 } },
  feed: { max_page_length: 50 },
  warnings: [
    { code: 'dev_mode_on', description: 'DEV_MODE is on: the dev headers are honoured. Turn it off in production.' },
    { code: 'geo_api_failing', description: '12 of the last 20 Geo API calls failed.' },
  ],
};

const AUDIT = Array.from({ length: 3 }, (_, i) => ({
  id: 100 - i, at: new Date((NOW - i * 60) * 1000).toISOString(), key_id: 'key_cms', method: 'PATCH',
  route: '/v2/sites/:site/media/:id/', path: `/v2/sites/${SITE}/media/m${i}/`, site: SITE, status: i === 2 ? 404 : 200,
  idempotency_key: i === 0 ? 'idem-1' : null, replayed: false,
}));

/** The worker's /admin API as the contract describes it, in the page (`window.fetch` replaced). */
class FakeAdmin {
  readonly calls: AdminCall[] = [];
  /** Sign-in attempts answered so far. */
  signInsAnswered = 0;
  /** The browser holds a valid session cookie. */
  session = false;
  /** The cookie was valid once and has expired (`session_expired`). */
  expired = false;
  keys = [{ id: 'key_cms', name: 'cms', scopes: ['read', 'write'], sites: [SITE], created_at: '2026-07-01T09:00:00.000Z', revoked_at: null as string | null }];
  private _original: typeof fetch | null = null;

  install(target: Window = window): this {
    this._original = target.fetch;
    target.fetch = (input: RequestInfo | URL, init?: RequestInit) => this._handle(input, init);
    this._target = target;
    return this;
  }

  private _target: Window = window;

  restore(): void {
    if (this._original) this._target.fetch = this._original;
  }

  callsTo(method: string, path: string): AdminCall[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  /** The session ends (the cookie expires): the next call is a 401 `session_expired`. */
  expire(): void {
    this.session = false;
    this.expired = true;
  }

  private async _handle(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    // Anything else (the test's own files) from the test server.
    if (!url.pathname.startsWith('/admin/')) return this._original!.call(this._target, input, init);
    const call: AdminCall = {
      method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : null,
    };
    this.calls.push(call);
    await aTimeout(1);
    const answer = this._answer(call);
    if (call.method === 'POST' && call.path === '/admin/session') this.signInsAnswered++;
    return answer;
  }

  private _answer({ method, path, query, headers, body }: AdminCall): Response {
    const unauthorized = () => (this.expired ? refusal(401, 'session_expired', 'The session has expired.')
      : refusal(401, 'unauthorized', 'Sign in first.'));
    if (path === '/admin/session') {
      if (method === 'POST') {
        if (body?.token !== TOKEN) return refusal(401, 'unauthorized', 'Wrong token.');
        this.session = true;
        this.expired = false;
        return json({ expires_at: new Date(Date.now() + 1_800_000).toISOString(), csrf: CSRF }, 201);
      }
      if (method === 'DELETE') {
        this.session = false;
        return new Response(null, { status: 204 });
      }
      return this.session ? json({ expires_at: new Date(Date.now() + 1_800_000).toISOString(), csrf: CSRF }) : unauthorized();
    }
    if (!this.session) return unauthorized();
    if (method !== 'GET' && headers.get('x-reelgate-csrf') !== CSRF) return refusal(403, 'csrf_refused', 'No CSRF value.');
    if (path === '/admin/metrics') return json(metrics(Number(query.get('minutes') ?? 60)));
    if (path === '/admin/config') return json(CONFIG);
    if (path === '/admin/keys' && method === 'GET') return json({ keys: this.keys });
    if (path === '/admin/keys' && method === 'POST') {
      const key = { id: `key_${body.name}`, name: body.name, scopes: body.scopes, sites: body.sites,
        created_at: new Date().toISOString(), revoked_at: null };
      this.keys = [...this.keys, key];
      return json({ ...key, key: 'rg_NEWTOKEN_shown_once', v1_secret: 'rgv1_NEWSECRET_shown_once' }, 201);
    }
    const revoke = /^\/admin\/keys\/([^/]+)$/.exec(path);
    if (revoke && method === 'DELETE') {
      const key = this.keys.find((k) => k.id === decodeURIComponent(revoke[1]!));
      if (!key) return refusal(404, 'not_found', 'No such key.');
      key.revoked_at = new Date().toISOString();
      return json(key);
    }
    if (path === '/admin/audit') {
      return query.get('cursor') === 'c2' ? json({ entries: AUDIT.slice(2), next_cursor: null })
        : json({ entries: AUDIT.slice(0, 2), next_cursor: 'c2' });
    }
    if (path === '/admin/purge' && method === 'POST') {
      const scope = ['playlist', 'media', 'player'].find((s) => s in body) ?? 'site';
      const id = scope === 'site' ? null : body[scope];
      return json({ site: body.site, scope, id, removed: scope === 'site' ? [] : [`${scope}:${body.site}:${id}`, `${scope}:${body.site}:${id}:v2`] });
    }
    return refusal(404, 'not_found', 'No such route.');
  }
}

// ---- helpers ----

async function mount(refresh = 0): Promise<ReelConsole> {
  const wrapper = await fixture<HTMLDivElement>(html`<div lang="en"><reel-console refresh=${refresh}></reel-console></div>`);
  const el = wrapper.querySelector('reel-console')!;
  await waitUntil(() => el.state !== 'loading', 'the console never left loading', { timeout: 5000 });
  await el.updateComplete;
  return el;
}

async function until(el: ReelConsole, test: () => unknown, message: string): Promise<void> {
  await waitUntil(test, message, { timeout: 5000, interval: 10 });
  await el.updateComplete;
}

function input(el: ReelConsole, selector: string): HTMLInputElement {
  const found = $(el, selector) as HTMLInputElement | null;
  if (!found) throw new Error(`no ${selector}`);
  return found;
}

function type(el: ReelConsole, selector: string, value: string): void {
  const field = input(el, selector);
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

function click(el: ReelConsole, selector: string): void {
  const button = $(el, selector);
  if (!button) throw new Error(`no ${selector}`);
  button.click();
}

/** Signs in through the form and waits for the answer (`fake` counts the attempts). */
async function signIn(el: ReelConsole, fake: FakeAdmin, token = TOKEN): Promise<void> {
  const before = fake.signInsAnswered;
  type(el, '#token', token);
  click(el, '.sign-in button[type="submit"]');
  // Answered, and the answer taken in (the button is disabled from the click until then).
  await until(el, () => el.state === 'signed-in' || (fake.signInsAnswered > before
    && !($(el, '.sign-in button[type="submit"]') as HTMLButtonElement).disabled), 'the sign-in never answered');
}

async function signedIn(fake: FakeAdmin, refresh = 0): Promise<ReelConsole> {
  fake.session = true;
  const el = await mount(refresh);
  expect(el.state).to.equal('signed-in');
  return el;
}

async function openTab(el: ReelConsole, tab: string): Promise<void> {
  click(el, `#tab-${tab}`);
  await until(el, () => $(el, `#panel[data-tab="${tab}"]`), `the ${tab} tab never opened`);
}

/** The chart in the overview card for `metric`, rendered. */
async function chartFor(el: ReelConsole, metric: string): Promise<ReelChart> {
  await until(el, () => $(el, `[data-chart="${metric}"] reel-chart`), `no chart for ${metric}`);
  const chart = $(el, `[data-chart="${metric}"] reel-chart`) as ReelChart;
  await chart.updateComplete;
  return chart;
}

const inChart = (chart: ReelChart, selector: string) => chart.shadowRoot!.querySelector<SVGElement | HTMLElement>(selector);
const legendTotal = (chart: ReelChart, name: string) => Number(inChart(chart, `li[data-series="${name}"]`)?.dataset.total);
const rowTotal = (chart: ReelChart, name: string) => Number(inChart(chart, `g.row[data-category="${name}"]`)?.dataset.total);

describe('<reel-console>', () => {
  let fake: FakeAdmin;
  beforeEach(() => {
    fake = new FakeAdmin().install();
  });
  afterEach(async () => {
    fake.restore();
    await emulateMedia({ colorScheme: 'light' });
  });

  it('signs in with the token, says so when the token is wrong, and keeps the token nowhere', async () => {
    const el = await mount();
    expect(el.state).to.equal('signed-out');
    expect(fake.callsTo('GET', '/admin/session')).to.have.length(1);
    await signIn(el, fake, 'not-the-token');
    expect(el.state).to.equal('signed-out');
    expect($(el, '.sign-in [role="alert"] .note')!.textContent).to.equal('That admin token was not accepted.');
    expect(input(el, '#token').value).to.equal('');

    await signIn(el, fake);
    expect(el.state).to.equal('signed-in');
    const posts = fake.callsTo('POST', '/admin/session');
    expect(posts.map((c) => c.body)).to.deep.equal([{ token: 'not-the-token' }, { token: TOKEN }]);
    expect(posts[1]!.headers.get('content-type')).to.equal('application/json');
    // Nowhere else: no URL, no storage, not left in a field.
    expect(fake.calls.filter((c) => `${c.path}?${c.query}`.includes(TOKEN))).to.deep.equal([]);
    expect(JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })).not.to.include(TOKEN);
    expect(location.href).not.to.include(TOKEN);
    expect($(el, '#token')).to.equal(null);
  });

  it('resumes a session the cookie still holds, and says when it has expired', async () => {
    fake.session = true;
    const el = await mount();
    expect(el.state).to.equal('signed-in');
    expect(fake.callsTo('POST', '/admin/session')).to.have.length(0);
    el.remove();

    fake.expire();
    const again = await mount();
    expect(again.state).to.equal('signed-out');
    expect($(again, '.sign-in .note')!.textContent).to.equal('Your session has expired. Sign in again.');
  });

  it('shows rate-limited sign-ins with the wait', async () => {
    const el = await mount();
    fake.restore();
    const original = window.fetch;
    window.fetch = async () => refusal(429, 'rate_limited', 'Too many sign-ins.', { 'retry-after': '30' });
    try {
      type(el, '#token', TOKEN);
      click(el, '.sign-in button[type="submit"]');
      await until(el, () => $(el, '.sign-in .note'), 'the sign-in never answered');
    } finally {
      window.fetch = original;
    }
    expect($(el, '.sign-in .note')!.textContent).to.equal('Too many attempts. Try again in 30 seconds.');
  });

  it('shows the current minute and the window as charts carrying the fake numbers', async () => {
    const el = await signedIn(fake);
    await until(el, () => $(el, '.figures'), 'the figures never showed');
    const figure = (metric: string) => $(el, `.figure[data-metric="${metric}"]`)!;
    expect(figure('upstream_calls').dataset.value).to.equal('10');
    expect(figure('upstream_calls').textContent!.replace(/\s+/g, ' ').trim()).to.include('10 of 50');
    expect(figure('requests').dataset.value).to.equal('12');
    expect(figure('budget_refusals').dataset.value).to.equal('1');
    expect(figure('geo_refusals').dataset.value).to.equal('2');
    expect(figure('gateway_calls').dataset.value).to.equal('2');
    expect(figure('playback_bytes').textContent).to.include('2.5 MB');

    const calls = await chartFor(el, 'upstream_calls');
    expect(legendTotal(calls, 'public')).to.equal(37);
    expect(legendTotal(calls, 'gateway')).to.equal(8);
    expect(inChart(calls, '[data-limit]')!.dataset.limit).to.equal('50');
    expect(calls.series.map((s) => s.values.length)).to.deep.equal([60, 60]);
    expect(calls.series[0]!.values.slice(-3)).to.deep.equal([10, 20, 7]);
    const svg = inChart(calls, 'svg[role="img"]')!;
    expect(inChart(calls, 'desc')!.textContent).to.include('public: 37 in total, at most 20 a minute, 7 in the current minute');
    expect(svg.getAttribute('aria-labelledby')).to.equal('title');
    expect(inChart(calls, 'line.limit')).not.to.equal(null);
    expect(inChart(calls, 'path.area.s0')).not.to.equal(null);

    const geoCalls = await chartFor(el, 'upstream_calls_geo');
    expect(legendTotal(geoCalls, 'public')).to.equal(4);
    expect(inChart(geoCalls, '[data-limit]')!.dataset.limit).to.equal('40');

    const budget = await chartFor(el, 'budget');
    expect(legendTotal(budget, 'waits')).to.equal(6);
    expect(legendTotal(budget, 'refusals')).to.equal(3);

    const cache = await chartFor(el, 'cache');
    expect(inChart(cache, 'g.row[data-category="feed"] rect.bar')!.dataset.value).to.equal('0.8');
    expect(inChart(cache, 'g.row[data-category="feed"] .value')!.textContent).to.equal('80% of 100');
    expect(inChart(cache, 'g.row[data-category="media"] .value')!.textContent).to.equal('75% of 40');
    expect(inChart(cache, 'g.row[data-category="geo"] .value')!.textContent).to.equal('no lookups');

    const geo = await chartFor(el, 'geo_decisions');
    expect(rowTotal(geo, 'europe')).to.equal(55);
    expect(Number(inChart(geo, 'g.row[data-category="europe"] rect[data-series="location unknown"]')!.dataset.value)).to.equal(3);
    expect(rowTotal(geo, 'no-anonymous-proxies')).to.equal(2);

    const countries = await chartFor(el, 'geo_refusals_by_country');
    expect([...countries.shadowRoot!.querySelectorAll<SVGGElement>('g.row')].map((g) => [g.dataset.category, Number(g.dataset.total)]))
      .to.deep.equal([['US', 9], ['JP', 4], ['unknown', 2]]);

    const playback = await chartFor(el, 'playback_bytes');
    expect(legendTotal(playback, 'bytes')).to.equal(4_000_000);
    expect(inChart(playback, 'li[data-series="bytes"]')!.textContent).to.include('4 MB');
    expect($(el, '[data-chart="playback_bytes"] p')!.textContent!.replace(/\s+/g, ' ')).to.include('40 playback requests, 2 refused');

    const requests = await chartFor(el, 'requests');
    expect(rowTotal(requests, 'api')).to.equal(105);
    expect(rowTotal(requests, 'playback')).to.equal(40);
    expect(rowTotal(requests, 'v2')).to.equal(1);
    expect(Number(inChart(requests, 'g.row[data-category="api"] rect[data-series="4xx"]')!.dataset.value)).to.equal(5);
  });

  it('asks for the window chosen, and refreshes while the tab is visible only', async () => {
    const el = await signedIn(fake, 0.05);
    await until(el, () => fake.callsTo('GET', '/admin/metrics').length >= 3, 'the metrics never refreshed');
    expect(fake.callsTo('GET', '/admin/metrics')[0]!.query.get('minutes')).to.equal('60');

    const select = $(el, '#window') as HTMLSelectElement;
    select.value = '1440';
    select.dispatchEvent(new Event('change'));
    await until(el, () => fake.callsTo('GET', '/admin/metrics').some((c) => c.query.get('minutes') === '1440'), 'no 24 h window');
    const calls = await chartFor(el, 'upstream_calls');
    await until(el, () => calls.series[0]?.values.length === 1440, 'the chart never showed 1440 minutes');

    // Hidden: no more requests; shown again: one at once.
    let state = 'hidden';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      await aTimeout(60);
      const before = fake.callsTo('GET', '/admin/metrics').length;
      await aTimeout(250);
      expect(fake.callsTo('GET', '/admin/metrics').length).to.equal(before);
      state = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
      await until(el, () => fake.callsTo('GET', '/admin/metrics').length > before, 'no refresh when shown again');
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    el.remove();
    const after = fake.calls.length;
    await aTimeout(200);
    expect(fake.calls.length).to.equal(after);
  });

  it('shows the configuration’s warnings above every tab', async () => {
    const el = await signedIn(fake);
    await until(el, () => $(el, '.warnings li'), 'no warnings');
    const codes = () => $$(el, '.warnings[role="alert"] li').map((li) => li.dataset.code);
    expect(codes()).to.deep.equal(['dev_mode_on', 'geo_api_failing']);
    expect($(el, '.warnings li[data-code="dev_mode_on"]')!.textContent).to.include('DEV_MODE is on: the dev headers');
    for (const tab of ['keys', 'audit', 'purge', 'config']) {
      await openTab(el, tab);
      expect(codes(), tab).to.deep.equal(['dev_mode_on', 'geo_api_failing']);
    }
    // The configuration, readably.
    expect($$(el, '[data-section="sites"] [data-site]').map((e) => e.dataset.site)).to.deep.equal([SITE, OTHER_SITE, 'nvsLN98U']);
    expect($(el, '[data-site="nvsLN98U"] [data-field="secret_binding"] dd')!.textContent).to.equal('SIGNED_SITE_SECRET');
    expect($(el, '[data-site="nvsLN98U"] [data-field="configured"] dd')!.textContent).to.equal('yes');
    expect($(el, '[data-policy="europe"] [data-field="deny_proxy_identifications"] dd')!.textContent).to.equal('tor_exit, tor_relay');
    expect($(el, '[data-section="allowed_origins"] li')!.textContent).to.equal('http://localhost:8787');
    expect($(el, '[data-section="budget"] [data-field="rate_per_minute"] dd')!.textContent).to.equal('50');
  });

  it('creates a key, shows its token once, lists it, and revokes it after a confirmation', async () => {
    const el = await signedIn(fake);
    await openTab(el, 'keys');
    await until(el, () => $(el, 'tr[data-key-id="key_cms"]'), 'the keys never listed');
    await until(el, () => $(el, 'tr[data-key-id="key_cms"] [data-calls="25"]'), 'no calls for the key');
    expect($(el, 'tr[data-key-id="key_cms"] [data-errors]')!.dataset.errors).to.equal('3');

    type(el, '#key-name', 'ci');
    (el.shadowRoot!.querySelector('input[name="scope"][value="write"]') as HTMLInputElement).checked = true;
    type(el, '#key-sites', `${SITE}, ${OTHER_SITE}`);
    click(el, 'form.create button[type="submit"]');
    await until(el, () => $(el, '.secret'), 'the new key never showed');
    const post = fake.callsTo('POST', '/admin/keys')[0]!;
    expect(post.body).to.deep.equal({ name: 'ci', scopes: ['read', 'write'], sites: [SITE, OTHER_SITE] });
    expect(post.headers.get('x-reelgate-csrf')).to.equal(CSRF);
    expect(input(el, '#created-token').value).to.equal('rg_NEWTOKEN_shown_once');
    expect(input(el, '#created-v1').value).to.equal('rgv1_NEWSECRET_shown_once');
    await until(el, () => $(el, 'tr[data-key-id="key_ci"]'), 'the new key is not listed');
    expect($(el, 'tr[data-key-id="key_ci"] th')!.textContent).to.equal('ci');
    // The form is empty for the next one.
    expect(input(el, '#key-name').value).to.equal('');

    click(el, '.secret .dismiss');
    await el.updateComplete;
    expect($(el, '.secret')).to.equal(null);
    const values = $$(el, 'input').map((i) => (i as HTMLInputElement).value);
    expect(values.join(' ')).not.to.include('rg_NEWTOKEN');
    expect(el.shadowRoot!.innerHTML).not.to.include('rg_NEWTOKEN');

    click(el, 'tr[data-key-id="key_ci"] .revoke');
    await el.updateComplete;
    expect(fake.callsTo('DELETE', '/admin/keys/key_ci')).to.have.length(0);
    click(el, 'tr[data-key-id="key_ci"] .confirm .danger');
    await until(el, () => $(el, 'tr[data-key-id="key_ci"]')?.classList.contains('revoked'), 'the key was never shown revoked');
    const revoke = fake.callsTo('DELETE', '/admin/keys/key_ci');
    expect(revoke).to.have.length(1);
    expect(revoke[0]!.headers.get('x-reelgate-csrf')).to.equal(CSRF);
    expect($(el, 'tr[data-key-id="key_ci"] .status')!.textContent).to.match(/^Revoked /);
    expect($(el, 'tr[data-key-id="key_cms"] .status')!.textContent).to.equal('Active');
  });

  it('cancels a revocation', async () => {
    const el = await signedIn(fake);
    await openTab(el, 'keys');
    await until(el, () => $(el, 'tr[data-key-id="key_cms"] .revoke'), 'the keys never listed');
    click(el, 'tr[data-key-id="key_cms"] .revoke');
    await el.updateComplete;
    click(el, 'tr[data-key-id="key_cms"] .confirm button:not(.danger)');
    await el.updateComplete;
    expect($(el, '.confirm')).to.equal(null);
    expect(fake.calls.filter((c) => c.method === 'DELETE')).to.deep.equal([]);
  });

  it('filters the audit trail with the query the contract names, and pages with next_cursor', async () => {
    const el = await signedIn(fake);
    await openTab(el, 'audit');
    await until(el, () => $$(el, 'table.audit tbody tr').length === 2, 'the audit trail never showed');
    expect([...fake.callsTo('GET', '/admin/audit')[0]!.query]).to.deep.equal([['limit', '50']]);

    type(el, '#audit-key', 'key_cms');
    const site = $(el, '#audit-site') as HTMLSelectElement;
    expect([...site.options].map((o) => o.value)).to.deep.equal(['', SITE, OTHER_SITE, 'nvsLN98U']);
    site.value = SITE;
    type(el, '#audit-status', '4XX');
    type(el, '#audit-since', '2026-07-05T10:00');
    type(el, '#audit-until', '2026-07-05T12:30:15');
    click(el, 'form.filters button[type="submit"]');
    await until(el, () => fake.callsTo('GET', '/admin/audit').length === 2, 'the filters were never applied');
    const filters = {
      limit: '50', key_id: 'key_cms', site: SITE, status: '4xx',
      since: new Date('2026-07-05T10:00').toISOString(), until: new Date('2026-07-05T12:30:15').toISOString(),
    };
    expect(Object.fromEntries(fake.callsTo('GET', '/admin/audit')[1]!.query)).to.deep.equal(filters);

    await until(el, () => !($(el, '.older') as HTMLButtonElement).disabled, 'no Older button');
    click(el, '.older');
    await until(el, () => $$(el, 'table.audit tbody tr').length === 1, 'the older page never showed');
    expect(Object.fromEntries(fake.callsTo('GET', '/admin/audit')[2]!.query)).to.deep.equal({ ...filters, cursor: 'c2' });
    expect(($(el, '.older') as HTMLButtonElement).disabled).to.equal(true);
    expect($(el, 'table.audit tbody tr td.num')!.textContent).to.equal('404');
    click(el, '.newer');
    await until(el, () => $$(el, 'table.audit tbody tr').length === 2, 'the newer page never showed');
    expect(Object.fromEntries(fake.callsTo('GET', '/admin/audit')[3]!.query)).to.deep.equal(filters);

    // A status that is neither exact nor a class is refused before asking.
    type(el, '#audit-status', '4x');
    click(el, 'form.filters button[type="submit"]');
    await el.updateComplete;
    expect($(el, 'form.filters .note.error')!.textContent).to.include('an exact status such as 201');
    expect(fake.callsTo('GET', '/admin/audit')).to.have.length(4);
  });

  it('purges what is chosen and lists the removed cache keys', async () => {
    const el = await signedIn(fake);
    await openTab(el, 'purge');
    await until(el, () => ($(el, '#purge-site') as HTMLSelectElement).options.length === 3, 'the sites never listed');
    expect(input(el, '#purge-id').disabled).to.equal(true);
    const scope = $(el, '#purge-scope') as HTMLSelectElement;
    scope.value = 'media';
    scope.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(input(el, '#purge-id').disabled).to.equal(false);
    ($(el, '#purge-site') as HTMLSelectElement).value = OTHER_SITE;
    type(el, '#purge-id', 'abc123');
    click(el, 'form.purge button[type="submit"]');
    await until(el, () => $(el, '.result'), 'the purge never answered');
    const post = fake.callsTo('POST', '/admin/purge')[0]!;
    expect(post.body).to.deep.equal({ site: OTHER_SITE, media: 'abc123' });
    expect(post.headers.get('x-reelgate-csrf')).to.equal(CSRF);
    expect($(el, '.result')!.dataset.removed).to.equal('2');
    expect($$(el, '.removed li').map((li) => li.textContent)).to.deep.equal([`media:${OTHER_SITE}:abc123`, `media:${OTHER_SITE}:abc123:v2`]);

    scope.value = 'site';
    scope.dispatchEvent(new Event('change'));
    await el.updateComplete;
    click(el, 'form.purge button[type="submit"]');
    await until(el, () => fake.callsTo('POST', '/admin/purge').length === 2 && $(el, '.result')?.dataset.removed === '0', 'no site purge');
    expect(fake.callsTo('POST', '/admin/purge')[1]!.body).to.deep.equal({ site: OTHER_SITE });
    expect($(el, '.result h3')!.textContent).to.include('nothing was cached');
  });

  it('returns to sign-in on a 401, saying the session expired, and forgets what it showed', async () => {
    const el = await signedIn(fake);
    await until(el, () => $(el, '.figures'), 'the overview never showed');
    fake.expire();
    click(el, '#tab-keys');
    await until(el, () => el.state === 'signed-out', 'the console never returned to sign-in');
    expect($(el, '.sign-in .note')!.textContent).to.equal('Your session has expired. Sign in again.');
    expect(el.metrics).to.equal(null);
    expect(el.config).to.equal(null);
    expect($(el, '.warnings')).to.equal(null);
    // Signing in again works, and asks for what the tab shows.
    await signIn(el, fake);
    expect(el.state).to.equal('signed-in');
  });

  it('signs out', async () => {
    const el = await signedIn(fake);
    click(el, '.sign-out');
    await until(el, () => el.state === 'signed-out', 'never signed out');
    const del = fake.callsTo('DELETE', '/admin/session');
    expect(del).to.have.length(1);
    expect(del[0]!.headers.get('x-reelgate-csrf')).to.equal(CSRF);
    expect($(el, '.sign-in .note')!.textContent).to.equal('Signed out.');
    expect(fake.session).to.equal(false);
  });

  it('moves between tabs with the arrow keys', async () => {
    const el = await signedIn(fake);
    ($(el, '#tab-overview') as HTMLButtonElement).focus();
    await sendKeys({ press: 'ArrowRight' });
    await until(el, () => el.tab === 'keys', 'ArrowRight did not move');
    expect(el.shadowRoot!.activeElement!.id).to.equal('tab-keys');
    await sendKeys({ press: 'End' });
    await until(el, () => el.tab === 'config', 'End did not move');
    await sendKeys({ press: 'ArrowRight' });
    await until(el, () => el.tab === 'overview', 'ArrowRight did not wrap');
    expect($(el, '#tab-overview')!.getAttribute('aria-selected')).to.equal('true');
    expect($(el, '#tab-keys')!.getAttribute('tabindex')).to.equal('-1');
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`passes axe on every screen in ${scheme}`, async function () {
      this.timeout(60_000);
      await emulateMedia({ colorScheme: scheme });
      const el = await mount();
      await signIn(el, fake, 'wrong');
      await expect(el).to.be.accessible();
      await signIn(el, fake);
      await until(el, () => $(el, '[data-chart="requests"] reel-chart'), 'the overview never showed');
      await Promise.all($$(el, 'reel-chart').map((c) => (c as ReelChart).updateComplete));
      // Each chart's numbers table too.
      for (const chart of $$(el, 'reel-chart')) chart.shadowRoot!.querySelector('details')!.open = true;
      await expect(el).to.be.accessible();
      await openTab(el, 'keys');
      await until(el, () => $(el, 'tr[data-key-id="key_cms"]'), 'no keys');
      type(el, '#key-name', 'axe');
      type(el, '#key-sites', '*');
      click(el, 'form.create button[type="submit"]');
      await until(el, () => $(el, '.secret'), 'no new key');
      click(el, 'tr[data-key-id="key_cms"] .revoke');
      await el.updateComplete;
      await expect(el).to.be.accessible();
      await openTab(el, 'audit');
      await until(el, () => $(el, 'table.audit'), 'no audit');
      await expect(el).to.be.accessible();
      await openTab(el, 'purge');
      ($(el, '#purge-site') as HTMLSelectElement).value = SITE;
      const scope = $(el, '#purge-scope') as HTMLSelectElement;
      scope.value = 'player';
      scope.dispatchEvent(new Event('change'));
      await el.updateComplete;
      type(el, '#purge-id', 'p1');
      click(el, 'form.purge button[type="submit"]');
      await until(el, () => $(el, '.result'), 'no purge');
      await expect(el).to.be.accessible();
      await openTab(el, 'config');
      await expect(el).to.be.accessible();
    });
  }

  it('runs its page under the console’s CSP (script-src and style-src self) with no violation', async function () {
    this.timeout(30_000);
    // In bundle mode (the embed's define.ts modules answer with an import of dist/reelgate.js), the page and the
    // bundle `npm run build` wrote to dist/admin/; otherwise the page and the sources.
    const bundle = (await (await fetch('/components/reel-playlist/define.ts')).text()).includes('/dist/reelgate.js');
    const [dir, script] = bundle ? ['/dist/admin', '/dist/admin/console.js'] : ['/components/console', '/components/console/define.ts'];
    const page = await (await fetch(`${dir}/index.html`)).text();
    const policy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'";
    // The page, with the policy the worker sends as a meta tag and the violation recorder; its files by absolute path.
    const doc = page
      .replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${policy}">
        <script src="/test/components/support/csp-violations.js"></script>`)
      .replace('href="./console.css"', `href="${dir}/console.css"`)
      .replace('src="./console.js"', `src="${script}"`);
    expect(doc).to.include(script);
    const frame = document.createElement('iframe');
    frame.srcdoc = doc;
    frame.width = '1000';
    frame.height = '800';
    document.body.append(frame);
    const inner = new FakeAdmin();
    try {
      const host = () => frame.contentDocument?.querySelector('reel-console') as ReelConsole | null;
      await waitUntil(() => host()?.state === 'signed-out', 'the console never showed its sign-in', { timeout: 15_000 });
      // Its first question went to the test server (no /admin there); from now on the fake answers.
      inner.install(frame.contentWindow!);
      const el = host()!;
      const field = el.shadowRoot!.querySelector<HTMLInputElement>('#token')!;
      field.value = TOKEN;
      el.shadowRoot!.querySelector<HTMLButtonElement>('.sign-in button[type="submit"]')!.click();
      await waitUntil(() => el.shadowRoot!.querySelectorAll('reel-chart').length >= 9, 'the overview never drew', { timeout: 10_000 });
      for (const tab of ['keys', 'audit', 'purge', 'config']) {
        el.shadowRoot!.querySelector<HTMLButtonElement>(`#tab-${tab}`)!.click();
        await el.updateComplete;
      }
      await aTimeout(100);
      expect(frame.contentDocument!.title).to.equal('reelgate console');
      const violations = (frame.contentWindow as Window & { cspViolations?: string[] }).cspViolations;
      expect(violations, 'the violation recorder did not load').to.be.an('array');
      expect(violations).to.deep.equal([]);
    } finally {
      inner.restore();
      frame.remove();
    }
  });
});
