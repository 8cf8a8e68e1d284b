/**
 * A link from one element to another it names by id (`<reel-player for="shelf">`), as a reactive controller: it
 * listens on the host's root (document or shadow root) for the named element's events, so it works whatever order
 * the two appear in, and asks the host to update after each one.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

type Handlers<E> = {
  [K in keyof GlobalEventHandlersEventMap]?: (event: GlobalEventHandlersEventMap[K], target: E) => void;
};

export interface LinkOptions<E extends Element> {
  /** The id to follow (the host's `for`); empty: none. */
  id: () => string;
  /** The events to follow, each with what it does (if anything beyond the host's update). */
  on: Handlers<E>;
  /** Called with the named element when a link is made and it is already there. */
  found?: (target: E) => void;
}

export class Link<E extends Element> implements ReactiveController {
  private _root: Document | ShadowRoot | null = null;
  private _id = '';

  constructor(private readonly _host: ReactiveControllerHost & HTMLElement, private readonly _options: LinkOptions<E>) {
    _host.addController(this);
  }

  /** The named element, while the host is connected and it is in the host's root. */
  get target(): E | null {
    return (this._id && (this._root?.getElementById(this._id) as E | null)) || null;
  }

  hostConnected(): void {
    this.follow();
  }

  hostDisconnected(): void {
    this._unfollow();
  }

  /** Links to the element the id names now (the host calls this when its `for` changes). */
  follow(): void {
    this._unfollow();
    this._id = this._options.id();
    if (!this._id || !this._host.isConnected) return;
    this._root = this._host.getRootNode() as Document | ShadowRoot;
    for (const type in this._options.on) this._root.addEventListener(type, this);
    const target = this.target;
    if (target) this._options.found?.(target);
  }

  /** The root's events: only the named element's count. */
  handleEvent(event: Event): void {
    const target = event.target as E | null;
    if (!this._id || target?.id !== this._id) return;
    (this._options.on as Record<string, (event: Event, target: E) => void>)[event.type]?.(event, target);
    this._host.requestUpdate();
  }

  private _unfollow(): void {
    for (const type in this._options.on) this._root?.removeEventListener(type, this);
    this._root = null;
  }
}
