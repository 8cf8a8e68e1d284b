/** What the playback kit knows of the element it serves (public members only: private ones are renamed per file). */
import type { TemplateResult } from 'lit';
import type { MediaResponse, PlayerResponse } from '../../../worker/contract/public-api.ts';
import type { MessageId, Messages, Values } from '../../shared/i18n/types.ts';
import type { PlayerOptions } from '../../shared/setup-config.ts';
import type { PlaybackEngine } from '../pick-source.ts';

/** A linked `<reel-playlist>`, as the player and its kit see it: its items and its choice. */
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

/**
 * What the element lends the kit, so the chunk carries no second copy: Lit's `html` and `nothing`, and its words in the
 * visitor's language (../../shared/i18n/localize.ts), to which the kit adds its own English.
 */
export interface Lit {
  html: (strings: TemplateStringsArray, ...values: unknown[]) => TemplateResult;
  nothing: unknown;
  msg: (host: KitHost, id: MessageId, values?: Values) => string;
  parts: (host: KitHost, id: MessageId, values?: Values) => unknown[];
  addEnglish: (messages: Messages) => void;
}

/** What the element is showing now: the media, the URL its engine plays, and the engine. */
export interface Playing {
  media: MediaResponse;
  url: string;
  engine: PlaybackEngine;
}

/** What the kit's controllers share: the element, the `<video>` it follows and what that plays. */
export interface KitContext {
  readonly host: KitHost;
  readonly lit: Lit;
  readonly video: HTMLVideoElement | null;
  readonly playing: Playing | null;
  /** The id of the media playing, or ''. */
  readonly mediaId: string;
  /** A message in the visitor's language, and the same as pieces (../../shared/i18n/localize.ts). */
  readonly say: (id: MessageId, values?: Values) => string;
  readonly sayParts: (id: MessageId, values?: Values) => unknown[];
}

/** Adds a listener to the `<video>` followed, removed when it changes. */
export type On = (type: string, handler: () => void) => void;
