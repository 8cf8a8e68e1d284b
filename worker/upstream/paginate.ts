/**
 * Walks every page of a list route, item by item. Stops on the last page (by `total`, a short page or an empty one)
 * and refuses to run away when an upstream ignores `page` (the same page again) or never ends (`maxPages`).
 */
import { InvalidArgumentError, UpstreamRequestError } from './errors.ts';
import { MAX_PAGE_LENGTH, type ListParams, type PageInfo } from '../contract/v2-types.ts';

export interface PaginateOptions {
  /** At most this many pages are fetched; one more is an error, not a silent truncation. Default 1000. */
  maxPages?: number;
}

export const DEFAULT_MAX_PAGES = 1000;

function positiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function firstId(items: readonly unknown[]): unknown {
  const first = items[0];
  return typeof first === 'object' && first !== null ? (first as { id?: unknown }).id : undefined;
}

export async function* paginate<K extends string, T>(
  fetchPage: (params: ListParams) => Promise<PageInfo & { [key in K]: T[] }>,
  itemsKey: K,
  params: ListParams = {},
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (!positiveInteger(maxPages)) throw new InvalidArgumentError('maxPages', 'maxPages must be a positive integer.');
  // Large pages by default: every page is one call out of the upstream's 60 a minute.
  const requestedLength = params.page_length ?? MAX_PAGE_LENGTH;
  let page = params.page ?? 1;
  let previousFirstId: unknown;

  for (let fetched = 0; ; fetched += 1) {
    if (fetched === maxPages) {
      throw new UpstreamRequestError('invalid_response', `${itemsKey}: still more pages after ${maxPages}; stopped.`);
    }
    const answer = await fetchPage({ ...params, page, page_length: requestedLength });
    const items: unknown = answer[itemsKey];
    if (!Array.isArray(items)) {
      throw new UpstreamRequestError('invalid_response', `${itemsKey}: a list answer without its items.`);
    }
    if (positiveInteger(answer.page) && answer.page !== page) {
      throw new UpstreamRequestError('invalid_response', `${itemsKey}: asked for page ${page}, got page ${answer.page}.`);
    }
    const id = firstId(items);
    if (fetched > 0 && id !== undefined && id === previousFirstId) {
      throw new UpstreamRequestError('invalid_response', `${itemsKey}: page ${page} repeats the previous page.`);
    }
    previousFirstId = id;

    yield* items as T[];

    if (items.length === 0) return;
    // The upstream may cap page_length below what was asked; positions follow what it applied.
    const pageLength = positiveInteger(answer.page_length) ? answer.page_length : requestedLength;
    if (typeof answer.total === 'number' && page * pageLength >= answer.total) return;
    if (items.length < pageLength) return;
    page += 1;
  }
}
