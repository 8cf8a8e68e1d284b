// Page-wide settings for reelgate's elements, set before the app renders any of them (main.tsx imports this first).
// `?endpoint=` names the worker (e.g. http://127.0.0.1:8787 from `npm start`); without it, this page's own origin, where
// the Vite dev server forwards /api to that worker. `?devIp=` (a worker with DEV_MODE on only) stands in for the
// visitor's address: 192.0.2.30 is Berlin, 192.0.2.20 New York. A global set before the app loads is kept otherwise.
const query = new URLSearchParams(location.search);
window.reelgate = {
  ...window.reelgate,
  endpoint: query.get('endpoint') ?? window.reelgate?.endpoint ?? location.origin,
  devIp: query.get('devIp') ?? window.reelgate?.devIp ?? null,
};
