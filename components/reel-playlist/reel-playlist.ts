import { html, type PropertyDeclarations, nothing, type PropertyValues } from 'lit';
import type { FeedItem, FeedResponse } from '../../worker/contract/public-api.ts';
import { errorMessage, fetchFeed, mediaUrl } from '../shared/api.ts';
import { emit, ReelLoadEvent, ReelSelectEvent } from '../shared/events.ts';
import { formatClock, formatDate, formatSpokenDuration } from '../shared/format.ts';
import { localeOf, msg, parts } from '../shared/i18n/localize.ts';
import { IDLE, Load } from '../shared/load.ts';
import { Observer } from '../shared/observer.ts';
import { ReelElement } from '../shared/reel-element.ts';
import { tokens } from '../shared/theme.ts';
import { playlistStyles } from './reel-playlist.styles.ts';

export type PlaylistState = 'idle' | 'loading' | 'empty' | 'error' | 'complete';
export type PlaylistLayout = 'grid' | 'list';

const MAX_PAGE_SIZE = 50;

/**
 * A playlist from the worker as a responsive grid (or list) of cards: lazy thumbnails of fixed aspect, title,
 * localised duration. Cards form one tab stop (arrow keys, Home and End move; Enter or Space chooses); "Load more"
 * fetches the next page.
 *
 * Its loading skeleton has the list's own geometry (a header row, `page-size` cards with their two title lines and
 * date line, and the "Load more" row), and once the cards arrive the list keeps at least the skeleton's block size,
 * so nothing under it moves; only "Load more", which the reader asks for, grows it. Card titles are clamped to two
 * lines and the header to one.
 *
 * @tag reel-playlist
 * @summary A video playlist shelf.
 *
 * @event {ReelSelectEvent} reel-select - A card was chosen. `event.mediaId`, `event.item`.
 * @event {ReelLoadEvent} reel-load - A page arrived. `event.feed` (that page's answer), `event.items` (everything shown so far).
 * @event {ReelErrorEvent} reel-error - Loading failed. `event.status` (0 when unreachable), `event.code`, `event.description`.
 *
 * @slot empty - Shown when the playlist has no items (default: "No videos here yet.", in the visitor's language).
 *
 * @csspart header - The row above the cards holding the title and the count.
 * @csspart title - The playlist's title.
 * @csspart count - "8 videos".
 * @csspart list - The card container (`role="listbox"`).
 * @csspart card - Each card (`role="option"`); the chosen one has `aria-selected="true"`.
 * @csspart thumbnail - The fixed-aspect thumbnail box of a card.
 * @csspart duration - The duration badge on a thumbnail.
 * @csspart card-title - A card's title.
 * @csspart meta - A card's publish date.
 * @csspart load-more - The "Load more" button.
 * @csspart empty - The empty state box.
 * @csspart error - The error box (with its retry button).
 * @csspart retry - The "Try again" button.
 *
 * @cssproperty --reel-card-min-width - Narrowest a grid card may get before the grid drops a column (default `13rem`).
 * @cssproperty --reel-thumbnail-aspect-ratio - Thumbnail box aspect (default `16 / 9`).
 * @cssproperty --reel-title-size - Font size of the playlist title (default `1.125rem`).
 * @cssproperty --reel-font - Font family of every element.
 * @cssproperty --reel-color-text - Text colour.
 * @cssproperty --reel-color-muted - Secondary text colour.
 * @cssproperty --reel-color-surface - Card background.
 * @cssproperty --reel-color-surface-raised - Background of the chosen card, buttons and messages.
 * @cssproperty --reel-color-border - Borders.
 * @cssproperty --reel-color-accent - The chosen card's border.
 * @cssproperty --reel-color-danger - Error accents.
 * @cssproperty --reel-color-focus - Focus ring.
 * @cssproperty --reel-color-skeleton - Loading placeholders and empty thumbnails.
 * @cssproperty --reel-radius - Corner radius.
 * @cssproperty --reel-gap - Space between cards.
 */
export class ReelPlaylist extends ReelElement {
  static override styles = [tokens, playlistStyles];
  static override properties: PropertyDeclarations = {
    site: {},
    playlist: {},
    layout: { reflect: true },
    pageSize: { attribute: 'page-size', type: Number },
    endpoint: {},
    selected: { reflect: true },
    state: { reflect: true },
    data: { type: Object },
    _items: { state: true, attribute: false },
    _feed: { state: true, attribute: false },
    _active: { state: true, attribute: false },
    _announce: { state: true, attribute: false },
  };

  /** The site id. */
  site = '';
  /** The playlist id. */
  playlist = '';
  /** `grid` (default) or `list`. */
  layout: PlaylistLayout = 'grid';
  /** Cards per page (1–50, default 12); "Load more" fetches the next page of this size. */
  pageSize = 12;
  /** The skeleton's block size, kept by the list (px). */
  private _keep = 0;
  /**
   * The box's height as the browser last laid it out (px), from a `ResizeObserver`. Reading it there, rather than
   * asking the skeleton for its size when the cards arrive, never forces a layout: a skeleton the cards replace before
   * it was ever laid out (a fast answer) cost a whole layout of itself for nothing.
   */
  private _seen = 0;
  private readonly _size = new Observer(this, () => new ResizeObserver(([entry]) => {
    this._seen = entry!.contentRect.height;
  }), () => this.renderRoot?.querySelector('.box'));
  /** Another worker to ask (default: the origin the bundle was loaded from). */
  endpoint: string | null = null;
  /** The chosen media id; set it to mark a card chosen without an event. */
  selected: string | null = null;
  /** `loading`, `empty`, `error` or `complete` (`idle` until `site` and `playlist` are set). Read-only. */
  state: PlaylistState = 'idle';
  /**
   * The first page's answer when the page has it already (fetched on its server, e.g. by `reelgate/server`): shown at
   * once, with no request, by a server-side render and by the browser's first render alike. The `data` attribute
   * takes it as JSON. Read at the first load only; a later `site`, `playlist` or `page-size` loads as usual.
   */
  data?: FeedResponse | null;

  private _items: FeedItem[] = [];
  private _feed: FeedResponse | null = null;
  private _active = 0;
  private _announce = '';


  private readonly _firstPage = new Load(this, {
    args: () => [this.endpoint, this.site, this.playlist, this._pageLength()] as const,
    task: ([endpoint, site, playlist, pageLength], signal) => {
      // A new first page supersedes any "load more" still on its way.
      this._nextPage.reset();
      if (!site || !playlist) return IDLE;
      return fetchFeed(endpoint, site, playlist, { page: 1, page_length: pageLength }, signal);
    },
    onComplete: (feed) => {
      this._feed = feed;
      this._items = feed.items;
      this._active = Math.max(0, feed.items.findIndex((item) => item.id === this.selected));
      emit(this, new ReelLoadEvent(feed, this._items));
    },
    given: () => this.data,
  });

  /** "Load more": run by the button only, for the page after the last one shown. */
  private readonly _nextPage = new Load(this, {
    task: (_, signal) => fetchFeed(this.endpoint, this.site, this.playlist,
      { page: this._feed!.next_page!, page_length: this._pageLength() }, signal),
    onComplete: (feed) => {
      const seen = new Set(this._items.map((item) => item.id));
      const added = feed.items.filter((item) => !seen.has(item.id));
      this._items = [...this._items, ...added];
      this._feed = feed;
      this._announce = msg(this, 'moreLoaded', { count: added.length });
      emit(this, new ReelLoadEvent(feed, this._items));
    },
  });

  /** Every item shown so far (all pages loaded). */
  get items(): readonly FeedItem[] {
    return this._items;
  }

  /** The playlist's header (title, description…) once loaded. */
  get feed(): FeedResponse | null {
    return this._feed;
  }

  /** Fetches the first page again (what the error state's "Try again" does). */
  reload(): Promise<void> {
    return this._firstPage.run();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this._nextPage.reset();
  }

  private _pageLength(): number {
    const size = Math.trunc(Number(this.pageSize));
    return Number.isFinite(size) ? Math.min(MAX_PAGE_SIZE, Math.max(1, size)) : 12;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The skeleton's box, as last laid out (so as painted, if it was), is the size the list keeps once its cards arrive.
    if (this.renderRoot?.querySelector?.('.skeleton-cards')) this._keep = this._seen;
    const state = this._firstPage.state(!!(this.site && this.playlist));
    this.state = state === 'complete' && this._items.length === 0 ? 'empty' : state;
    if (changed.has('selected') && this.selected) {
      const index = this._items.findIndex((item) => item.id === this.selected);
      if (index >= 0) this._active = index;
    }
  }

  protected override firstUpdated(): void {
    // The box exists from the first render on: watch it now (later connections find it themselves).
    this._size.hostConnected();
  }

  private _choose(index: number): void {
    const item = this._items[index];
    if (!item) return;
    this._active = index;
    this.selected = item.id;
    emit(this, new ReelSelectEvent(item.id, item));
  }

  private _cards(): HTMLElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('[role="option"]')];
  }

  /** Cards per row as laid out now (1 in the list layout). */
  private _columns(cards: HTMLElement[]): number {
    const top = cards[0]?.offsetTop;
    let columns = 0;
    for (const card of cards) {
      if (card.offsetTop !== top) break;
      columns++;
    }
    return Math.max(1, columns);
  }

  private _onKeydown(event: KeyboardEvent): void {
    const cards = this._cards();
    if (cards.length === 0) return;
    const rtl = getComputedStyle(this).direction === 'rtl';
    const columns = this._columns(cards);
    const last = cards.length - 1;
    let next: number | null = null;
    switch (event.key) {
      case 'ArrowRight': next = this._active + (rtl ? -1 : 1); break;
      case 'ArrowLeft': next = this._active + (rtl ? 1 : -1); break;
      case 'ArrowDown': next = this._active + columns; break;
      case 'ArrowUp': next = this._active - columns; break;
      case 'Home': next = 0; break;
      case 'End': next = last; break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        this._choose(this._active);
        return;
      default:
        return;
    }
    event.preventDefault();
    this._active = Math.min(last, Math.max(0, next));
    cards[this._active]?.focus();
  }

  private _onFocusin(event: FocusEvent): void {
    const index = this._cards().indexOf(event.target as HTMLElement);
    if (index >= 0) this._active = index;
  }

  protected override render() {
    return html`
      <div class="visually-hidden" role="status" aria-live="polite">${
        this.state === 'loading' ? msg(this, 'loadingVideos') : this._announce}</div>
      <div class="box" .style=${`min-block-size:${this._keep}px`}>${this._firstPage.render({
        idle: () => (this.site && this.playlist ? this._renderSkeleton() : nothing),
        loading: () => this._renderSkeleton(),
        complete: () => this._renderList(),
      })}</div>
    `;
  }

  /** The list's geometry: its header, a page of cards and the "Load more" row (invisible). */
  private _renderSkeleton() {
    return html`
      <div class="header" aria-hidden="true"><span class="skeleton title-skeleton"></span></div>
      <div class="cards skeleton-cards" aria-hidden="true">
        ${Array.from({ length: this._pageLength() }, () => html`
          <div class="card skeleton-card">
            <div class="thumb skeleton"></div>
            <div class="text"><div class="line skeleton"></div><div class="line short skeleton"></div></div>
          </div>`)}
      </div>
      <div class="footer off" aria-hidden="true"><button tabindex="-1" disabled>${msg(this, 'loadMore')}</button></div>`;
  }

  private _renderList() {
    const feed = this._feed;
    if (!feed) return nothing;
    const lang = localeOf(this);
    const title = feed.playlist.title;
    const header = html`
      <div class="header" part="header">
        <span class="title" part="title" id="title">${title}</span>
        <span class="count" part="count">${msg(this, 'videoCount', { count: feed.total })}</span>
      </div>`;
    if (this._items.length === 0) {
      return html`${header}
        <div class="message" part="empty"><slot name="empty"><p>${msg(this, 'noVideos')}</p></slot></div>`;
    }
    const active = Math.min(this._active, this._items.length - 1);
    // A plain map, not the keyed `repeat`: while the list shows, cards are only ever appended ("Load more"); a new first
    // page replaces the whole list through the skeleton. So index order is key order, and the directive would only cost.
    return html`
      ${header}
      <ul class="cards" part="list" role="listbox" aria-labelledby="title"
        aria-orientation=${this.layout === 'list' ? 'vertical' : nothing}
        @keydown=${this._onKeydown} @focusin=${this._onFocusin}>
        ${this._items.map((item, index) => this._renderCard(item, index, index === active, lang))}
      </ul>
      ${this._renderFooter(feed)}`;
  }

  private _renderCard(item: FeedItem, index: number, active: boolean, lang: string) {
    const published = item.publish_start_date ? formatDate(item.publish_start_date, lang) : null;
    // A gated item's images may be the worker's playback URLs (paths on the worker): resolved like the player's.
    const srcset = item.thumbnails.length
      ? item.thumbnails.map((t) => `${mediaUrl(this.endpoint, t.url)} ${t.width}w`).join(', ') : nothing;
    return html`
      <li class="card" part="card" role="option" data-media=${item.id}
        tabindex=${active ? 0 : -1} aria-selected=${item.id === this.selected ? 'true' : 'false'}
        @click=${() => this._choose(index)}>
        <div class="thumb" part="thumbnail">
          ${item.thumbnail
            ? html`<img src=${mediaUrl(this.endpoint, item.thumbnail)} srcset=${srcset} sizes=${srcset === nothing ? nothing : '(min-width: 40rem) 20rem, 100vw'}
                alt="" loading="lazy" decoding="async" />`
            : html`<span class="placeholder" aria-hidden="true">▶</span>`}
          ${item.duration != null ? html`
            <span class="duration" part="duration"><span aria-hidden="true">${formatClock(item.duration, lang)}</span><span
              class="visually-hidden">, ${formatSpokenDuration(item.duration, lang)}</span></span>` : nothing}
        </div>
        <div class="text">
          <span class="card-title" part="card-title">${item.title}</span>
          ${published ? html`<span class="meta" part="meta">${parts(this, 'published', { date: published }).map((piece, i) =>
            (i % 2 ? piece : piece && html`<span class="visually-hidden">${piece}</span>`))}</span>` : nothing}
        </div>
      </li>`;
  }

  private _renderFooter(feed: FeedResponse) {
    if (feed.next_page == null) return nothing;
    const more = this._nextPage.status;
    const loading = more === 'loading';
    return html`
      <div class="footer">
        <button part="load-more" ?disabled=${loading} aria-busy=${loading ? 'true' : 'false'}
          @click=${() => loading || this._nextPage.run()}>${msg(this, loading ? 'loading' : more === 'error' ? 'tryAgain'
            : 'loadMore')}</button>
        <span class="count">${msg(this, 'shownOf', { shown: this._items.length, total: feed.total })}</span>
        ${more === 'error' ? html`<p class="error-text" role="alert">${errorMessage(this, this._nextPage.error)}</p>` : nothing}
      </div>`;
  }
}
