/** `GET /admin/audit`: the audit trail of gateway calls, a page at a time, narrowed by key, site, status and time. */
import { SITE_ID } from '../../config.ts';
import type { RequestContext } from '../../http/context.ts';
import { noStoreJson } from '../../http/respond.ts';
import { AuditLog, DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE, type StatusFilter } from '../audit.ts';
import { gatewayDb } from '../db.ts';
import { invalid, methodNotAllowed } from '../errors.ts';
import { KEY_ID, onlyParams } from './request.ts';

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-](\d{2}):(\d{2})))?$/;

/** `since` / `until`: an ISO 8601 date, or a date and time with its zone; as stored (`toISOString`). */
function readTime(name: string, text: string): string {
  // A `+` sent unencoded in a query arrives as a space.
  const value = text.replace(/ (\d{2}:\d{2})$/, '+$1');
  const match = ISO_TIME.exec(value);
  const refuse = () => invalid(`${name} must be an ISO 8601 time with its zone (2026-05-01T12:00:00Z, `
    + '2026-05-01T14:00:00+02:00) or a date (2026-05-01, midnight UTC).');
  if (!match) throw refuse();
  const [, year, month, day, hour = '0', minute = '0', second = '0', , offsetHour = '0', offsetMinute = '0'] = match;
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysInMonth || Number(hour) > 23
    || Number(minute) > 59 || Number(second) > 59 || Number(offsetHour) > 23 || Number(offsetMinute) > 59) throw refuse();
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw refuse();
  return new Date(ms).toISOString();
}

/** `status`: one status (201) or a class (`2xx`). */
function readStatus(text: string): StatusFilter {
  const match = /^([1-5])(\d\d|xx)$/i.exec(text);
  if (!match) throw invalid('status must be a status (e.g. 201) or a class: 2xx, 3xx, 4xx, 5xx.');
  const hundreds = Number(match[1]) * 100;
  return match[2]!.toLowerCase() === 'xx' ? { from: hundreds, below: hundreds + 100 } : { exact: Number(text) };
}

export async function auditRoute({ request, env }: RequestContext): Promise<Response> {
  const url = new URL(request.url);
  if (request.method !== 'GET') throw methodNotAllowed(['GET']);
  onlyParams(url, ['limit', 'cursor', 'key_id', 'site', 'status', 'since', 'until']);
  const limitText = url.searchParams.get('limit');
  const cursorText = url.searchParams.get('cursor');
  const keyId = url.searchParams.get('key_id');
  const site = url.searchParams.get('site');
  const status = url.searchParams.get('status');
  const since = url.searchParams.get('since');
  const until = url.searchParams.get('until');
  if (limitText !== null && !/^\d{1,3}$/.test(limitText)) throw invalid(`limit must be 1 to ${MAX_AUDIT_PAGE}.`);
  const limit = limitText === null ? DEFAULT_AUDIT_PAGE : Number(limitText);
  if (limit < 1 || limit > MAX_AUDIT_PAGE) throw invalid(`limit must be 1 to ${MAX_AUDIT_PAGE}.`);
  if (cursorText !== null && !/^[1-9]\d{0,15}$/.test(cursorText)) throw invalid('cursor is not valid.');
  if (keyId !== null && !KEY_ID.test(keyId)) throw invalid('key_id is not valid.');
  if (site !== null && !SITE_ID.test(site)) throw invalid('site must be a site id (8 letters or digits).');
  const from = since === null ? null : readTime('since', since);
  const to = until === null ? null : readTime('until', until);
  if (from !== null && to !== null && from >= to) throw invalid('since must be before until.');
  return noStoreJson(await new AuditLog(gatewayDb(env)).page({
    limit, before: cursorText === null ? null : Number(cursorText), keyId, site,
    status: status === null ? null : readStatus(status), since: from, until: to,
  }));
}
