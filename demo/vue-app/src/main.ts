import './settings.ts';
// The element classes, registered once; this is the package's "." export (dist/lib/index.js).
import 'reelgate';
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
