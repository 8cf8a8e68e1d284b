/**
 * The player configuration panel's words in English: loaded with the panel (panel.ts), and added to the elements'
 * catalogue (../shared/i18n/en.ts) when it loads. Every language pack translates them too. An option's name is the
 * message of its `setup_config` key.
 */
export const configEnglish = {
  releaseChannel: 'Release channel: {channel}',
  noOptions: 'No options set: the player uses its defaults.',
  yes: 'Yes',
  no: 'No',
  aspectratio: 'Shape of the player',
  ratioValue: '{ratio} (width to height)',
  followsVideo: 'Follows the video',
  autostart: 'Starts playing',
  whenViewable: 'When scrolled into view, muted',
  onLoad: 'As soon as the page loads, muted',
  onPlay: 'When the viewer presses play',
  mute: 'Starts muted',
  repeat: 'Plays again from the start when it ends',
  preload: 'Loads before play is pressed',
  preloadNone: 'Nothing',
  preloadAuto: 'As much of the video as the browser likes',
  preloadMetadata: 'Only the length and first frame',
  stretching: 'How the picture fills the frame',
  fitContain: 'Whole picture, with bars if the shapes differ',
  fitCover: 'Fills the frame, cropping the edges',
  fitFill: 'Stretched to the frame',
  fitNone: 'At its own size',
  playbackRateControls: 'Playback speed menu',
  ratesValue: 'Yes: {rates}',
  displaytitle: 'Shows the title',
  displaydescription: 'Shows the description',
  controls: 'Shows the controls',
  width: 'Width',
  height: 'Height',
};
