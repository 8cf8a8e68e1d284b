/**
 * The script-tag entry (`<script type="module" src="https://<worker>/embed/reelgate.js">`): defines every element.
 * Loading it twice, or beside a bundled copy, is harmless: each tag is defined only if it is still free.
 */
import './index.ts';
