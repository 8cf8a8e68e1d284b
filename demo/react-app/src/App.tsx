// Typed JSX for the reel-* tags and their events (`onreel-select` gets a ReelSelectEvent): types only, nothing runs.
import type {} from 'reelgate/react';
import { useState } from 'react';

const SITE = 'vbQmzoYd';
const EUROPE_SITE = '93QufRA9';

export function App() {
  const [playing, setPlaying] = useState<string | null>(null);
  const [gate, setGate] = useState('Checking where you are…');
  return (
    <main>
      <header>
        <h1>The Northwind Courier</h1>
        <p>A publisher page built with React 19 and reelgate.</p>
      </header>

      <section aria-labelledby="kitchen">
        <h2 id="kitchen">From the kitchen</h2>
        {/* The player plays what the shelf below chooses (its `for` names the shelf's id). */}
        <reel-player site={SITE} player="RkWDvjNV" for="food-shelf" />
        <p aria-live="polite">{playing ? `Now playing: ${playing}` : 'Pick a video from the shelf.'}</p>
        <reel-playlist id="food-shelf" site={SITE} playlist="DGRTLuft" page-size={5}
          onreel-select={(event) => setPlaying(event.item.title)} />
      </section>

      <section aria-labelledby="settings">
        <h2 id="settings">How our player is set up</h2>
        <reel-player-config site={SITE} player="RkWDvjNV" />
      </section>

      <section aria-labelledby="live">
        <h2 id="live">Live music (Europe only)</h2>
        <p>{gate}</p>
        {/* The playlist sits directly in the gate: it asks for nothing until the gate allows. */}
        <reel-geo-gate policy="europe"
          onreel-gate-decision={(event) => setGate(event.allowed ? `Showing it in ${event.country}.` : 'Not shown here.')}>
          <p slot="denied">Our live sessions are licensed for Europe only.</p>
          <reel-playlist site={EUROPE_SITE} playlist="TwZWDpHr" layout="list" page-size={3} />
        </reel-geo-gate>
      </section>
    </main>
  );
}
