// A React 19 page using the elements, type-checked against the generated declarations (nothing here runs). Each
// `@ts-expect-error` is a mistake the declarations must refuse: if one stopped being an error, tsc fails here.
import type { ReelSelectEvent } from '../../dist/types/components/index.js';

export function Shelf({ onChoose }: { onChoose: (id: string) => void }) {
  return (
    <>
      <reel-player site="vbQmzoYd" player="RkWDvjNV" media="TR8jYAyr" poster="/posters/TR8jYAyr.jpg" for="shelf" />
      <reel-playlist id="shelf" site="vbQmzoYd" playlist="DGRTLuft" page-size={6} layout="list"
        onreel-select={(event) => onChoose(event.mediaId)}
        onreel-error={(event) => console.warn(event.code, event.description)} />
      <reel-geo-gate policy="europe" fail="closed" onreel-gate-decision={(event) => event.allowed}>
        <p slot="denied">Europe only.</p>
        <reel-playlist site="93QufRA9" playlist="TwZWDpHr" />
      </reel-geo-gate>
      <reel-player-config site="vbQmzoYd" player="RkWDvjNV" className="panel" />
    </>
  );
}

export function Mistakes() {
  const select = (event: ReelSelectEvent) => event.item.title;
  return (
    <>
      {/* @ts-expect-error page-size is a number */}
      <reel-playlist site="vbQmzoYd" playlist="DGRTLuft" page-size={{ rows: 2 }} />
      {/* @ts-expect-error layout is 'grid' or 'list' */}
      <reel-playlist site="vbQmzoYd" playlist="DGRTLuft" layout="carousel" />
      {/* @ts-expect-error fail is 'open' or 'closed' */}
      <reel-geo-gate policy="europe" fail="maybe" />
      {/* @ts-expect-error state is read-only: not an attribute a page sets */}
      <reel-player state="complete" />
      {/* @ts-expect-error a select listener takes a ReelSelectEvent, not an error */}
      <reel-playlist onreel-error={select} />
    </>
  );
}
