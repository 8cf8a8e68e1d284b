/**
 * Every word the elements show, in English: the catalogue built into the embed, and the one every language pack
 * translates (packs/*.ts; `npm test` checks each has every message with the same placeholders). What only some pages
 * show comes with the chunk that shows it: the player's playback kit, the player configuration's panel and the gate's
 * refusal of a location (../../reel-player/kit/en.ts, ../../reel-player-config/en.ts,
 * ../../reel-geo-gate/refusal-words.ts).
 *
 * A message is text with `{name}` placeholders, or, for one that counts, its forms by plural category
 * (`Intl.PluralRules`: `one`, `other`, and `zero`, `two`, `few`, `many` where a language has them), chosen by its
 * `{count}`. A number put in a placeholder is written in the visitor's language. The ids are the public names a page
 * overrides a message by (components/docs/languages.md), so an id, once shipped, keeps its meaning.
 */
export const english = {
  // <reel-geo-gate> (the reasons a location is refused come with its refusal: ../../reel-geo-gate/refusal-words.ts);
  // a reason is named by its code
  checking: 'Checking availability…',
  notHere: 'This content isn’t available where you are.',
  gate_unreachable: 'We could not check where you are just now. Please try again later.',
  gate_refused: 'The availability rules for this content could not be checked.',

  // <reel-playlist>
  loadingVideos: 'Loading videos…',
  videoCount: { one: '{count} video', other: '{count} videos' },
  moreLoaded: { one: '{count} more video loaded.', other: '{count} more videos loaded.' },
  noVideos: 'No videos here yet.',
  loadMore: 'Load more',
  loading: 'Loading…',
  shownOf: '{shown} of {total}',
  published: ', published {date}',

  // <reel-player>
  chooseVideo: 'Choose a video to play.',
  loadingVideo: 'Loading video…',
  videoLabel: 'Video: {title}',
  audioLabel: 'Audio: {title}',
  noPlayableSource: 'This video has no version your browser can play.',
  playbackFailed: 'This video could not be played.',

  // <reel-player-config> (its panel's words come with the panel: ../../reel-player-config/en.ts)
  loadingSettings: 'Loading player settings…',

  // Every element
  tryAgain: 'Try again',
  errorNotFound: 'This content could not be found.',
  errorTooMany: 'Too many requests just now. Please try again in a moment.',
  errorOffline: 'The video service could not be reached. Check your connection and try again.',
  errorServer: 'The video service is having trouble. Please try again.',
  errorOther: 'Something went wrong while loading.',
};
