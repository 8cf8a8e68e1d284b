// The Vue 3 declarations, checked as Vue's tooling reads them: `GlobalComponents` gives each tag its props, with the
// events as `on…` listeners (`@reel-select` in a template). Nothing here runs.
import type { GlobalComponents } from 'vue';
import type { ReelErrorEvent, ReelSelectEvent } from '../../dist/types/components/index.js';

type PropsOf<Tag extends keyof GlobalComponents> = InstanceType<GlobalComponents[Tag]>['$props'];

export const playlist: PropsOf<'reel-playlist'> = {
  site: 'vbQmzoYd', playlist: 'DGRTLuft', 'page-size': 6, layout: 'grid',
  onReelSelect: (event: ReelSelectEvent) => event.mediaId,
  onReelError: (event: ReelErrorEvent) => event.code,
};
export const player: PropsOf<'reel-player'> = { site: 'vbQmzoYd', media: 'TR8jYAyr', poster: '/posters/TR8jYAyr.jpg' };
export const gate: PropsOf<'reel-geo-gate'> = { policy: 'europe', fail: 'open', onReelGateDecision: (event) => event.allowed };

// @ts-expect-error layout is 'grid' or 'list'
export const wrongLayout: PropsOf<'reel-playlist'> = { layout: 'carousel' };
// @ts-expect-error a player fires no reel-select
export const wrongEvent: PropsOf<'reel-player'> = { onReelSelect: (event: ReelSelectEvent) => event };
