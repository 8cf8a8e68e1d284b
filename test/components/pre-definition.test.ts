/**
 * components/reelgate.css (served as /embed/reelgate.css): before the bundle defines <reel-player>, the page's
 * stylesheet gives each one the box its defined self will have, from the same attributes (`ratio`, `rows`, `player`)
 * and custom properties, so defining it moves nothing. This page imports no element until the test defines it.
 */
import { expect, fixture } from '@open-wc/testing';
import type { ReelPlayer } from '../../components/reel-player/reel-player.ts';

interface Shift extends PerformanceEntry {
  value: number;
}

const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

/** Attributes of each player, as publishers write them (no `site`: nothing is fetched, the geometry is the point). */
const CASES = [
  '',
  'player="p1"',
  'player="p1" ratio="4:3"',
  'ratio="9:16" rows="toolbar"',
  'ratio="21:9" rows="title"',
  'rows=""',
  'player="" ratio="3:2"',
  'ratio="1:1" rows="description title" style="--reel-player-description-lines: 3; font-size: 18px"',
  'player="p1" ratio="4:5" style="--reel-player-title-size: 1.5em"',
];

describe('pre-definition geometry (reelgate.css)', () => {
  it('an undefined <reel-player> has the box of its defined self, whatever its ratio, rows and text sizes', async () => {
    expect(customElements.get('reel-player'), 'defined too early: this page must import no element').to.equal(undefined);
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/components/reelgate.css' });
    await new Promise((resolve, reject) => {
      link.onload = resolve;
      link.onerror = reject;
      document.head.append(link);
    });
    // A page that sizes everything by border-box, as many do, and fallback content with margins of its own.
    const wrapper = await fixture<HTMLDivElement>(`
      <div class="geometry" style="inline-size: 412px">
        <style>.geometry *, .geometry *::before, .geometry *::after { box-sizing: border-box; }</style>
        ${CASES.map((attrs) => `<reel-player ${attrs}><p style="margin: 1em">Our videos need JavaScript.</p></reel-player>
          <p class="below" style="margin-block: 0.5rem">Under the player.</p>`).join('')}
      </div>`);
    const players = [...wrapper.querySelectorAll<ReelPlayer>('reel-player')];
    const boxes = () => players.map((el) => {
      const { top, height, width } = el.getBoundingClientRect();
      return { top, height, width, next: el.nextElementSibling!.getBoundingClientRect().top };
    });
    await painted();
    const before = boxes();
    expect(before[0]!.height, 'reserved').to.be.above(412 * 9 / 16);

    const entries: Shift[] = [];
    const observer = new PerformanceObserver((list) => entries.push(...(list.getEntries() as Shift[])));
    observer.observe({ type: 'layout-shift' });
    await import('../../components/reel-player/define.ts');
    await Promise.all(players.map((el) => el.updateComplete));
    await painted();
    const after = boxes();
    for (const [i, attrs] of CASES.entries()) {
      for (const key of ['top', 'height', 'width', 'next'] as const) {
        expect(after[i]![key], `<reel-player ${attrs}>: ${key}`).to.be.closeTo(before[i]![key], 0.05);
      }
    }
    await painted();
    entries.push(...(observer.takeRecords() as Shift[]));
    observer.disconnect();
    expect(entries.reduce((sum, e) => sum + e.value, 0)).to.equal(0);
  });
});
