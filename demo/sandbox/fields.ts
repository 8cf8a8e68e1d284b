// The fields each list route filters (`q`) and sorts on.
import type { FieldSet } from './query.ts';

const BASE = ['id', 'created', 'last_modified'] as const;

export const MEDIA_FIELDS: FieldSet = {
  name: 'media',
  top: [...BASE, 'status', 'error_message', 'duration', 'media_type', 'mime_type', 'hosting_type'],
  metadata: ['title', 'description', 'author', 'permalink', 'category', 'language', 'tags', 'publish_start_date',
    'publish_end_date', 'external_id'],
  text: ['title', 'description', 'author'],
  dates: ['created', 'last_modified', 'publish_start_date', 'publish_end_date'],
  customParams: true,
};

export const RENDITION_FIELDS: FieldSet = {
  name: 'media_renditions',
  top: [...BASE, 'media_id', 'status', 'filesize', 'width', 'height', 'mime_type', 'media_type'],
  metadata: ['name'],
  dates: ['created', 'last_modified'],
};

export const ORIGINAL_FIELDS: FieldSet = {
  name: 'originals',
  top: [...BASE, 'media_id', 'status', 'duration', 'filesize', 'mime_type'],
  metadata: ['name'],
  dates: ['created', 'last_modified'],
};

export const TEXT_TRACK_FIELDS: FieldSet = {
  name: 'text_tracks',
  top: [...BASE, 'media_id', 'status'],
  metadata: ['label', 'srclang', 'kind', 'default'],
  dates: ['created', 'last_modified'],
};

export const PLAYLIST_FIELDS: FieldSet = {
  name: 'playlists',
  top: [...BASE, 'playlist_type'],
  metadata: ['title', 'description', 'author', 'link'],
  text: ['title', 'description', 'author'],
  dates: ['created', 'last_modified'],
  customParams: true,
};

export const PLAYER_FIELDS: FieldSet = {
  name: 'players',
  top: [...BASE],
  metadata: ['name', 'release_channel'],
  text: ['name'],
  dates: ['created', 'last_modified'],
  customParams: true,
};
