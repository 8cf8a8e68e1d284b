/**
 * The preview-thumbnail storyboard of a video, as the Delivery API names it (a `thumbnails` track): a WebVTT file at
 * `<delivery>/strips/<media_id>-120.vtt` whose cues each name a sprite image (`<media_id>-120.jpg`, usually relative
 * to the VTT) and the 120-pixel-wide frame in it (`#xywh=x,y,w,h`). Players load it as a track of kind `thumbnails`
 * for seek-bar previews.
 */

/** The label a media answer gives its storyboard track. */
export const STORYBOARD_LABEL = 'Thumbnails';

const PLAIN_NAME = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,63}$/;

/**
 * A file of a media's own storyboard: `name` (a plain file name, or a reference as a cue writes it, resolved against
 * the storyboard's URL) when it lies in the storyboard's folder, on its host, and is named for the media
 * (`<media_id>-…`), with no query; else null. Another media's strips, another folder or host, `..`, credentials and
 * schemes other than http(s) are not the media's storyboard files. The fragment is not part of the file (dropped).
 */
export function storyboardFile(storyboard: string, mediaId: string, name: string): URL | null {
  let vtt: URL;
  let file: URL;
  try {
    vtt = new URL(storyboard);
    file = new URL(name, vtt);
  } catch {
    return null;
  }
  if ((file.protocol !== 'https:' && file.protocol !== 'http:') || file.username || file.password || file.search ||
    file.origin !== vtt.origin) {
    return null;
  }
  const folder = vtt.pathname.slice(0, vtt.pathname.lastIndexOf('/') + 1);
  const last = file.pathname.slice(folder.length);
  if (!file.pathname.startsWith(folder) || !PLAIN_NAME.test(last) || !last.startsWith(`${mediaId}-`) ||
    file.pathname === vtt.pathname) {
    return null;
  }
  file.hash = '';
  return file;
}
