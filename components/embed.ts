/**
 * The script-tag entry (`<script type="module" src="https://<worker>/embed/reelgate.js">`): defines every element.
 * Loading it twice, or beside a bundled copy, is harmless: each tag is defined only if it is still free.
 */
// The elements' registrations only, not the package entry (components/index.ts): its exports (event classes, helpers)
// are for bundler users, and a class with static fields is kept by the bundler even when nothing uses it.
import './reel-playlist/define.ts';
import './reel-player/define.ts';
import './reel-player-config/define.ts';
import './reel-geo-gate/define.ts';
