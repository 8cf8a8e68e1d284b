import './settings.ts';
// The element classes, registered once; this is the package's "." export (dist/lib/index.js).
import 'reelgate';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

createRoot(document.getElementById('app')!).render(<StrictMode><App /></StrictMode>);
