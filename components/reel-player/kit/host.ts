/** What the playback kit knows of the element it serves (public members only: private ones are renamed per file). */
import type { TemplateResult } from 'lit';
import type { MediaResponse, PlayerResponse } from '../../../worker/contract/public-api.ts';
import type { PlayerOptions } from '../../shared/setup-config.ts';
import type { PlaybackEngine } from '../pick-source.ts';

export interface PlaylistLike extends HTMLElement {
  items: ReadonlyArray<{ id: string; title?: string }>;
  selected: string | null;
}

/** The element, as the kit sees it. */
export interface KitHost extends HTMLElement {
  addController(controller: { hostDisconnected(): void }): void;
  readonly video: HTMLVideoElement | null;
  readonly mediaItem: MediaResponse | undefined;
  readonly config: PlayerResponse | undefined;
  /** The id of the playlist it follows. */
  readonly htmlFor: string;
  media: string;
  readonly endpoint: string | null;
  readonly options: PlayerOptions;
  /** Asks for the media again: one of its playback URLs (`src`) was refused. */
  renew(src: string): void;
  requestUpdate(): void;
}

export interface Lit {
  html: (strings: TemplateStringsArray, ...values: unknown[]) => TemplateResult;
  nothing: unknown;
}

/** What the element is showing now: the media, the URL its engine plays, and the engine. */
export interface Playing {
  media: MediaResponse;
  url: string;
  engine: PlaybackEngine;
}
