// The bytes every rendition delivery URL plays, so the demo's player really plays. Made once with Debian's ffmpeg:
//   ffmpeg -f lavfi -i testsrc2=size=320x180:rate=15:duration=5 -f lavfi -i sine=frequency=440:duration=5 \
//     -c:v libx264 -profile:v baseline -pix_fmt yuv420p -crf 38 -g 75 -c:a aac -b:a 24k -ac 1 -movflags +faststart sample.mp4
//   ffmpeg -f lavfi -i sine=frequency=330:duration=5 -c:a aac -b:a 24k -ac 1 -movflags +faststart sample-audio.m4a
//   ffmpeg -i sample.mp4 -c copy -bsf:v h264_mp4toannexb -f mpegts sample.mpegts     (the one HLS segment)
// Every video rendition serves the same 5-second test pattern whatever width it claims: the sandbox models the
// catalog, not an encoding ladder. The files are Data modules (an ArrayBuffer each): wrangler.toml's `rules` for
// `wrangler dev`, build.mjs's copy loader and `modulesRules` for the test pool and Miniflare. The segment is not
// `.ts`, which would read as TypeScript.
import videoMp4 from './media/sample.mp4';
import audioMp4 from './media/sample-audio.m4a';
import videoTs from './media/sample.mpegts';

/** H.264 baseline + AAC, 320x180, 5 s, in MP4 with the index up front. */
export const SAMPLE_VIDEO_MP4 = new Uint8Array(videoMp4);
/** AAC in MP4, 5 s. */
export const SAMPLE_AUDIO_MP4 = new Uint8Array(audioMp4);
/** The same clip as one MPEG-TS segment, for the HLS packaged on the delivery side (assets.ts `hlsLadder`). */
export const SAMPLE_VIDEO_TS = new Uint8Array(videoTs);

/** Seconds in every sample clip. */
export const SAMPLE_SECONDS = 5;
