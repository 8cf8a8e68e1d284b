/**
 * The package entry for bundler users: the element classes (importing this registers the tags, each only if the
 * page has not already), their events, and the helpers their options go through.
 */
// Each tag is registered by its element's define.ts, never by the class module (which has no side effects).
import './reel-playlist/define.ts';
import './reel-player/define.ts';
import './reel-player-config/define.ts';
import './reel-geo-gate/define.ts';

export { ReelPlaylist, type PlaylistLayout, type PlaylistState } from './reel-playlist/reel-playlist.ts';
export { ReelPlayer, type PlayerState } from './reel-player/reel-player.ts';
export { ReelPlayerConfig, type PlayerConfigState } from './reel-player-config/reel-player-config.ts';
export { ReelGeoGate, type GateState } from './reel-geo-gate/reel-geo-gate.ts';
export {
  ReelErrorEvent, ReelGateDecisionEvent, ReelLoadEvent, ReelSelectEvent, type GateDecisionReason,
} from './shared/events.ts';
export {
  ReelEndedEvent, ReelPauseEvent, ReelPlayEvent, ReelProgressEvent, ReelRenditionEvent, ReelStallEvent,
} from './shared/playback-events.ts';
export { ReelApiError } from './shared/api.ts';
export { playerOptions, describeConfig, type PlayerOptions } from './shared/setup-config.ts';
export { pickPlayback, type PlaybackEngine } from './reel-player/pick-source.ts';
export type { ReelgateSettings } from './shared/settings.ts';
export { defineMessages, loadLanguage, type Message, type MessageId, type Messages } from './shared/i18n/localize.ts';
export type {
  FeedItem, FeedResponse, GateReason, GateResponse, MediaResponse, MediaSource, MediaTrack, PlayerResponse,
} from '../worker/contract/public-api.ts';
