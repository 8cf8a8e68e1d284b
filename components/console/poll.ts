/**
 * Runs a refresh every few seconds while its host is connected, the refresh is wanted and the browser tab is visible:
 * a hidden tab asks for nothing, and showing it again refreshes at once. One refresh at a time: the next is timed
 * from the end of the last, and a `restart()` during one runs another right after it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface PollOptions {
  /** Milliseconds between refreshes; 0 or less: no automatic refresh (`restart()` still runs one). */
  interval: () => number;
  /** Whether refreshing makes sense now (e.g. signed in). */
  active: () => boolean;
  refresh: () => Promise<unknown>;
}

export class Poll implements ReactiveController {
  private _timer: ReturnType<typeof setTimeout> | undefined;
  private _running = false;
  private _again = false;
  private _connected = false;

  constructor(host: ReactiveControllerHost, private readonly _options: PollOptions) {
    host.addController(this);
  }

  hostConnected(): void {
    this._connected = true;
    document.addEventListener('visibilitychange', this._onVisibility);
  }

  hostDisconnected(): void {
    this._connected = false;
    document.removeEventListener('visibilitychange', this._onVisibility);
    this.stop();
  }

  /** Refreshes now (if active and visible), then every interval. */
  restart(): void {
    clearTimeout(this._timer);
    if (!this._connected || !this._options.active() || document.visibilityState === 'hidden') return;
    if (this._running) {
      this._again = true;
      return;
    }
    void this._run();
  }

  stop(): void {
    clearTimeout(this._timer);
    this._timer = undefined;
    this._again = false;
  }

  private readonly _onVisibility = () => {
    if (document.visibilityState === 'hidden') this.stop();
    else this.restart();
  };

  private async _run(): Promise<void> {
    this._running = true;
    try {
      await this._options.refresh();
    } catch {
      // The refresh shows its own failure; the next one may succeed.
    } finally {
      this._running = false;
    }
    if (this._again) {
      this._again = false;
      this.restart();
      return;
    }
    const interval = this._options.interval();
    if (this._connected && interval > 0 && this._options.active() && document.visibilityState !== 'hidden') {
      clearTimeout(this._timer);
      this._timer = setTimeout(() => this.restart(), interval);
    }
  }
}
