/**
 * The playback kit's words in English: loaded with the kit (a player with nothing to play never needs them), and
 * added to the elements' catalogue (../../shared/i18n/en.ts) when it loads. Every language pack translates them too.
 */
export const kitEnglish = {
  chapters: 'Chapters',
  quality: 'Quality',
  qualityAuto: 'Auto',
  qualityAutoAt: 'Auto ({height}p)',
  qualityHeight: '{height}p',
  qualityBitrate: '{kbps} kbps',
  captions: 'Captions',
  captionsOff: 'Captions off',
  speed: 'Speed',
  /** A playback rate in the speed menu. */
  rate: '{rate}×',
  seek: 'Seek',
  seekPosition: '{time} of {duration}',
  seekPositionChapter: '{time} of {duration}, {chapter}',
  previewAt: 'Preview at {time}',
  upNextPlays: 'Up next: {title}, plays in {seconds} s',
  upNextShows: 'Up next: {title}, in {seconds} s',
  upNextPlaysUntitled: 'Up next, plays in {seconds} s',
  upNextShowsUntitled: 'Up next, in {seconds} s',
  playNow: 'Play now',
  showNow: 'Show now',
  cancel: 'Cancel',
};
