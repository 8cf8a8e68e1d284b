/**
 * What a page pays for the player's lazily loaded parts: the playback kit comes once a player with media is near the
 * viewport (or interacted with, or autostarting), and hls.js only for a player that plays HLS through MSE. A file of its own, so its page has loaded nothing before.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../../components/index.ts';
import type { FeedResponse, MediaResponse } from '../../../worker/contract/public-api.ts';
import { $, untilState } from '../support/dom.ts';
import { FOOD, SITE } from '../support/seed.ts';

/** The page's requests for one of the player's chunks (source modules here, versioned files in the bundle suite). */
const requests = (chunk: 'kit' | 'hls') => performance.getEntriesByType('resource').map((e) => e.name)
  .filter((name) => (chunk === 'kit' ? /player-kit\.ts|reelgate-kit\./ : /hls-engine\.ts|reelgate-hls\./).test(name));

describe('the player\'s chunks', function (this: MochaContext) {
  this.timeout(60_000);

  it('never requests the HLS chunk on a page whose players need no MSE, and the kit once', async () => {
    const feed = (await (await fetch(`/api/sites/${SITE}/playlists/${FOOD}?page_length=3`)).json()) as FeedResponse;
    // The media answers as a page whose media have MP4 renditions only (no HLS) gets them.
    const original = window.fetch;
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      const response = await original(input, init);
      if (!url.includes('/media/')) return response;
      const body = (await response.json()) as MediaResponse;
      return new Response(JSON.stringify({ ...body, sources: body.sources.filter((s) => s.type === 'video/mp4') }),
        { status: response.status, headers: response.headers });
    };
    try {
      const wrapper = await fixture<HTMLDivElement>(html`<div style="inline-size: 640px">
        ${feed.items.map((item) => html`<reel-player site=${SITE} media=${item.id} rows="toolbar"></reel-player>`)}
      </div>`);
      const players = [...wrapper.querySelectorAll('reel-player')];
      for (const player of players) await untilState(player, 'complete');
      expect(players.map((p) => p.engine)).to.deep.equal(players.map(() => 'progressive'));
      const video = players[0]!.video!;
      video.muted = true;
      await video.play();
      await waitUntil(() => video.currentTime > 0.3, 'the MP4 never played', { timeout: 15000 });
      await waitUntil(() => requests('kit').length > 0, 'the kit never loaded', { timeout: 10000 });
      expect(requests('kit'), 'the kit, once for every player').to.have.length(1);
      expect(requests('hls'), 'hls.js').to.deep.equal([]);
      expect($(players[0]!, '[part="quality-menu"]')).to.equal(null);
    } finally {
      window.fetch = original;
    }
  });
});
