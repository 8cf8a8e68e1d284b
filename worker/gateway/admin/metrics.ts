/**
 * `GET /admin/metrics`: what the worker recorded about itself (worker/metrics/), for the console (JSON, the last
 * `minutes` per minute, default 60, at most 1,440) and for a scraper (`Accept: application/openmetrics-text` or
 * `?format=openmetrics`: the totals since the store began, as OpenMetrics counters).
 */
import type { RequestContext } from '../../http/context.ts';
import { noStoreJson } from '../../http/respond.ts';
import { MAX_WINDOW_MINUTES, flushNow, metricsStub, metricsView, openMetricsText, OPENMETRICS_TYPE } from '../../metrics/index.ts';
import { invalid, methodNotAllowed } from '../errors.ts';

const DEFAULT_MINUTES = 60;

function wantsOpenMetrics(request: Request, format: string | null): boolean {
  if (format !== null) return format === 'openmetrics';
  const accept = request.headers.get('accept') ?? '';
  return /application\/openmetrics-text|text\/plain/.test(accept) && !accept.includes('application/json');
}

export async function metricsRoute({ request, env, config }: RequestContext): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== 'GET' && request.method !== 'HEAD') throw methodNotAllowed(['GET', 'HEAD']);
  for (const name of url.searchParams.keys()) {
    if (name !== 'minutes' && name !== 'format') throw invalid('Unknown query parameter; this route accepts minutes, format.');
  }
  const format = url.searchParams.get('format');
  if (format !== null && format !== 'json' && format !== 'openmetrics') throw invalid('format must be json or openmetrics.');
  const minutesText = url.searchParams.get('minutes');
  if (minutesText !== null && !/^\d{1,4}$/.test(minutesText)) throw invalid(`minutes must be 1 to ${MAX_WINDOW_MINUTES}.`);
  const minutes = minutesText === null ? DEFAULT_MINUTES : Number(minutesText);
  if (minutes < 1 || minutes > MAX_WINDOW_MINUTES) throw invalid(`minutes must be 1 to ${MAX_WINDOW_MINUTES}.`);
  if (wantsOpenMetrics(request, format)) {
    await flushNow(env);
    const text = openMetricsText(await metricsStub(env).totals(), config);
    return new Response(text, { headers: { 'content-type': OPENMETRICS_TYPE, 'cache-control': 'no-store' } });
  }
  return noStoreJson(await metricsView(env, config, minutes));
}
