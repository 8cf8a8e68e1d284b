// A network drop on demand, for the renewal test in test/components/integration/geo-playback.test.ts. It sits in
// front of the /api proxy of web-test-runner.config.mjs. The test arms it with playback paths: the first GET of one
// of them gets the worker's real answer (status, headers and full Content-Length) but only its first part of the
// bytes, and then the connection hangs until the test drops it, the way a network can fail in the middle of a long
// file. The media element then asks the worker again for the rest, with a range; that request and every later one
// on an armed path reach the worker unchanged, and the gate records what the worker answered (status, error code), so
// the test can show that the worker itself refused the URL. Nothing here decides an answer: the worker does.
//
// Controls (POST, JSON): /__reelgate-test/gate {paths, fraction} arms; /__reelgate-test/gate/drop drops the held
// connection; GET /__reelgate-test/gate/log lists the armed paths' requests.
const CONTROL = '/__reelgate-test/gate';
const SKIPPED = ['host', 'connection', 'origin', 'referer', 'cookie'];
const NOT_PASSED = ['content-encoding', 'transfer-encoding', 'connection'];

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

export function playbackGate(worker) {
  let armed = new Set();
  let fraction = 0.5;
  let holding = null;
  let held = false;
  let log = [];

  return async (context, next) => {
    if (context.path.startsWith(CONTROL)) {
      if (context.method === 'POST' && context.path === CONTROL) {
        const body = await readJson(context.req);
        armed = new Set(body.paths);
        fraction = body.fraction ?? 0.5;
        held = false;
        log = [];
        context.status = 204;
      } else if (context.method === 'POST' && context.path === `${CONTROL}/drop`) {
        const dropped = holding;
        holding = null;
        dropped?.();
        context.body = { dropped: Boolean(dropped) };
      } else if (context.method === 'GET' && context.path === `${CONTROL}/log`) {
        context.body = log;
      } else {
        context.status = 404;
      }
      return;
    }
    if (!worker || !armed.has(context.path)) return next();

    const headers = {};
    for (const [name, value] of Object.entries(context.request.headers)) if (!SKIPPED.includes(name)) headers[name] = value;
    const response = await fetch(new URL(context.url, worker), { method: context.method, headers });
    const body = Buffer.from(await response.arrayBuffer());
    let code = null;
    if (response.status >= 400) {
      try {
        code = JSON.parse(body.toString('utf8')).errors?.[0]?.code ?? null;
      } catch {
        // not a v2 error body
      }
    }
    log.push({ method: context.method, range: context.request.headers.range ?? null, status: response.status, code });

    const out = {};
    for (const [name, value] of response.headers) if (!NOT_PASSED.includes(name)) out[name] = value;
    if (context.method === 'GET' && !held && (response.status === 200 || response.status === 206)) {
      held = true;
      // Part of the bytes, then nothing until the test drops the connection.
      context.respond = false;
      const res = context.res;
      res.writeHead(response.status, out);
      res.write(body.subarray(0, Math.floor(body.length * fraction)));
      await new Promise((resolve) => {
        holding = resolve;
        res.once('close', resolve);
      });
      res.destroy();
      return;
    }
    context.status = response.status;
    for (const [name, value] of Object.entries(out)) if (name !== 'content-length') context.set(name, value);
    context.body = body;
  };
}
