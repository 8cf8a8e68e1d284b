// What the sandbox stores for media and their conversions: its own records, richer than the platform's answers (the
// upload a media came from, its external id beside its metadata, a rendition's MIME type and media, a text track's
// state and default flag). The platform's answers are made from them by answers.ts, and only there: no route answers
// a record as it is stored.
import type {
  MediaMetadata as AnsweredMetadata, MediaUpload, PlaylistMetadata, PlaylistType, Timestamp,
} from '../../worker/contract/v2-types.ts';

/** The upload a media was made from, as its create body gave it (the contract's type). */
export type { MediaUpload };

export type MediaStatus = 'created' | 'processing' | 'ready' | 'updating' | 'failed';
export type MediaType = 'video' | 'audio' | 'unknown';
export type HostingType = 'hosted' | 'external';

interface StoredBase<T extends string> {
  id: string;
  type: T;
  created: Timestamp;
  last_modified: Timestamp;
}

/** A media's fields as stored: the answered ones, with the external id beside them (answers put it at the top). */
export type MediaMetadata = Omit<AnsweredMetadata, 'drm' | 'duration'> & { external_id: string | null };

export interface Media extends StoredBase<'media'> {
  status: MediaStatus;
  error_message: string | null;
  duration: number | null;
  media_type: MediaType;
  mime_type: string | null;
  hosting_type: HostingType;
  metadata: MediaMetadata;
  upload: MediaUpload | null;
  /**
   * Whether the platform packages the media as HLS too (its Delivery API answer lists `/manifests/<id>.m3u8`); the
   * Management API lists no rendition for it. The sandbox's own (never answered); absent reads as true.
   */
  hls?: boolean;
}

export interface MediaRendition extends StoredBase<'media_rendition'> {
  media_id: string;
  status: 'processing' | 'ready' | 'failed';
  delivery_url: string;
  filesize: number;
  width: number | null;
  height: number | null;
  /** What the sandbox serves at the delivery URL; answers carry the file's `format` (extension) instead. */
  mime_type: string;
  media_type: MediaType;
  /** The ladder step's name, for the v1 layer's conversions and the HLS variants; not in answers. */
  metadata: { name: string };
}

export interface Original extends StoredBase<'original'> {
  media_id: string;
  status: 'processing' | 'ready' | 'failed';
  duration: number;
  filesize: number;
  mime_type: string;
  metadata: { name: string };
}

export type TextTrackKind = 'captions' | 'subtitles' | 'chapters' | 'descriptions' | 'metadata';
export interface TextTrack extends StoredBase<'text_track'> {
  media_id: string;
  /** `ready` is published (delivered); `draft` is processed but unpublished (`auto_publish: false`, or unpublished). */
  status: 'processing' | 'ready' | 'draft' | 'failed';
  /** Whether processing ends `ready` rather than `draft` (the create's `upload.auto_publish`, true unless false). */
  auto_publish: boolean;
  error_message: string | null;
  track_kind: TextTrackKind;
  delivery_url: string;
  /** `position`: the track's place in the player's menu (from 0); `default` is the sandbox's own (not answered). */
  metadata: { label: string; srclang: string; kind: TextTrackKind; default: boolean; position: number };
}

/**
 * A playlist as stored: its fields and its type's rules together under `metadata` (as the typed answer has them), its
 * type, and whether it is the site's default recommendations playlist (as the untyped answer has them).
 */
export interface Playlist extends StoredBase<'playlist'> {
  playlist_type: PlaylistType;
  default: boolean;
  metadata: PlaylistMetadata & { [member: string]: unknown };
}
