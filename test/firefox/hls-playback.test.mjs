// Issue 23: the same media plays adaptively in Firefox ESR. <reel-player> plays an HLS media of the demo site through
// Media Source Extensions (hls.js, loaded as the embed's own chunk): engine 'mse', a blob: source, the playlist read by
// hls.js and never by the <video>; it starts on the lowest variant and moves up on loopback (reel-rendition events).
//
// The player is laid out 960 px wide: hls.js's capLevelToPlayerSize (which the player sets) caps the levels to the
// first one at least as wide as the video element (in device pixels), so a 640 px player would never be offered the
// 1280x720 variant.
/* global document, window */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  HLS_CHUNK, describePlayer, hlsMedia, mountPlayer, openDemoPage, openFirefox, playMuted, waitFor, workerUrl,
} from './support.mjs';

let browser;
let media;
before(async () => {
  browser = await openFirefox();
  media = await hlsMedia();
});
after(async () => {
  await browser?.close();
});

/** A fresh demo page with the player under test mounted on the chosen media; closed after `fn`. */
async function withPlayer(fn) {
  const page = await openDemoPage(browser);
  try {
    await mountPlayer(page, media.id);
    await fn(page);
  } finally {
    await page.close();
  }
}

/** The variants of the media's master playlist: [{ width, height, bandwidth }], in the playlist's order. */
async function variants() {
  const url = new URL(media.hls, workerUrl());
  const text = await fetch(url, { signal: AbortSignal.timeout(15_000) }).then((r) => r.text());
  return [...text.matchAll(/^#EXT-X-STREAM-INF:(.*)$/gm)].map(([, attrs]) => {
    const [, width, height] = /RESOLUTION=(\d+)x(\d+)/.exec(attrs) ?? [];
    return { width: Number(width), height: Number(height), bandwidth: Number(/(?:^|,)BANDWIDTH=(\d+)/.exec(attrs)?.[1]) };
  });
}

test('plays the HLS media through MSE: engine "mse", a blob: source, the playlist never fetched by the <video>',
  { timeout: 90_000 }, async () => {
    await withPlayer(async (page) => {
      await waitFor(page, () => document.getElementById('under-test').engine === 'mse', {
        timeout: 20_000, message: 'player.engine never became "mse"', describe: describePlayer,
      });
      const element = await page.evaluate(() => {
        const player = document.getElementById('under-test');
        return { engine: player.engine, attribute: player.getAttribute('engine') };
      });
      assert.deepEqual(element, { engine: 'mse', attribute: 'mse' });

      await playMuted(page);
      await waitFor(page, () => document.getElementById('under-test').video.currentTime > 3, {
        timeout: 30_000, message: 'currentTime never passed 3 s', describe: describePlayer,
      });
      const { src, currentSrc } = await page.evaluate(() => {
        const { video } = document.getElementById('under-test');
        return { src: video.src, currentSrc: video.currentSrc };
      });
      assert.match(src, /^blob:/, 'video.src is the MediaSource\'s blob: URL');
      assert.match(currentSrc, /^blob:/);

      // Firefox records a media element's own loads with initiatorType "video"; hls.js reads playlists by XHR.
      const playlist = new URL(media.hls, workerUrl()).pathname;
      const loads = await page.evaluate((path) => performance.getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === path).map((e) => e.initiatorType), playlist);
      assert.ok(loads.length > 0, `the master playlist ${playlist} was never requested`);
      assert.deepEqual(loads.filter((type) => type !== 'xmlhttprequest' && type !== 'fetch'), [],
        `only hls.js (XHR or fetch) requests the playlist; requests by initiator: ${loads.join(', ')}`);
    });
  });

test('plays adaptively: the lowest variant first, then a higher one (reel-rendition events, auto)', { timeout: 90_000 }, async () => {
  const levels = await variants();
  assert.ok(levels.length >= 2, `the master playlist has ${levels.length} variant(s); adaptive play needs two`);
  const heights = levels.map((l) => l.height).sort((a, b) => a - b);
  const [lowest, highest] = [heights[0], heights.at(-1)];
  await withPlayer(async (page) => {
    await playMuted(page);
    await waitFor(page, (low) => {
      const seen = window.__reelEvents.filter((e) => e.type === 'reel-rendition' && e.target === 'under-test');
      return seen.length > 0 && seen[0].height === low && seen.some((e) => e.height > low);
    }, {
      timeout: 30_000, args: [lowest],
      message: `the player never played ${lowest}p and then a higher variant (${heights.join('p, ')}p)`,
      describe: describePlayer,
    });
    const events = await page.evaluate(() => window.__reelEvents
      .filter((e) => e.type === 'reel-rendition' && e.target === 'under-test'));
    const played = events.map((e) => e.height).join('p → ');
    assert.equal(events[0].height, lowest, `the first rendition is the lowest variant (played: ${played}p)`);
    for (const event of events) {
      assert.equal(event.mediaId, media.id);
      assert.equal(event.auto, true, 'nobody pinned a rendition');
      const level = levels.find((l) => l.height === event.height);
      assert.ok(level, `rendition ${event.width}x${event.height} is one of the playlist's variants`);
      assert.equal(event.width, level.width);
      assert.equal(event.bitrate, level.bandwidth, 'bitrate is the variant\'s declared BANDWIDTH');
    }
    // Consecutive events name different renditions (a change, not a repeat).
    for (let i = 1; i < events.length; i++) assert.notEqual(events[i].height, events[i - 1].height);
    assert.ok(events.findIndex((e) => e.height > lowest) > 0, `a higher variant followed the lowest (played: ${played}p)`);
    // With two variants (the sandbox's 360p and 720p) the higher one is the highest.
    if (levels.length === 2) assert.ok(events.some((e) => e.height === highest), `${highest}p was played (played: ${played}p)`);
  });
});

test('loads the hls.js chunk exactly once for the page', { timeout: 90_000 }, async () => {
  await withPlayer(async (page) => {
    await waitFor(page, () => document.getElementById('under-test').engine === 'mse', {
      timeout: 20_000, message: 'player.engine never became "mse"', describe: describePlayer,
    });
    await playMuted(page);
    await waitFor(page, () => document.getElementById('under-test').video.currentTime > 1, {
      timeout: 30_000, message: 'currentTime never passed 1 s', describe: describePlayer,
    });
    const paths = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
    const hls = paths.filter((path) => HLS_CHUNK.test(path));
    assert.equal(hls.length, 1, `requests of the hls.js chunk: ${JSON.stringify(hls)}`);
  });
});
