// The one table `npm run bench` prints (Markdown, so test/bench/README.md can hold it as it is).
const n = (value) => (typeof value === 'number' ? value.toLocaleString('en-US') : String(value));
const statuses = (mix) => Object.entries(mix ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([s, c]) => `${s}×${n(c)}`).join(' ');
const kb = (bytes) => `${n(bytes)} B (${(bytes / 1024).toFixed(1)} KiB)`;

export function table(results) {
  const rows = [];
  const row = (section, subject, figures, compared) => rows.push(`| ${section} | ${subject} | ${figures} | ${compared} |`);

  edgeRows(results).forEach((line) => rows.push(line));
  const amp = results.upstream_amplification;
  if (amp) {
    const fig = (r) => `${n(r.client_requests)} requests → **${n(r.upstream_calls)} Management calls**` +
      (r.delivery_calls !== undefined ? ` and ${n(r.delivery_calls)} Delivery API calls` : '') + `, ${n(r.upstream_429s)} upstream 429s, ` +
      `peak ${n(r.peak_upstream_calls_per_minute)}/min; client p50 ${n(r.latency_ms.p50)} ms, p99 ${n(r.latency_ms.p99)} ms; ${n(r.duration_s)} s` +
      (r.client_errors || r.client_timeouts ? `; ${n(r.client_errors)} client errors (${n(r.client_timeouts)} timeouts)` : '');
    const load = `${n(amp.load.requests)} req, ${amp.load.connections} clients, ${amp.load.distinct_keys} keys`;
    const cold = amp.reelgate_cold;
    const spent = cold.goodput === undefined ? '' : `; ${n(cold.keys_served)} keys served, goodput **${cold.goodput}**, ` +
      `${cold.keys_per_call} keys per call (floor ${cold.keys_per_call_floor})`;
    row('2 Upstream amplification', `reelgate, cold cache (${load})`, fig(cold) + spent, `clients: ${statuses(cold.client_statuses)}`);
    if (amp.reelgate_warm) {
      row('', `reelgate, warm cache (${amp.reelgate_warm.keys_cached_before} of ${amp.load.distinct_keys} keys cached)`, fig(amp.reelgate_warm),
        `clients: ${statuses(amp.reelgate_warm.client_statuses)}`);
    }
    if (amp.naive_proxy) row('', 'naive pass-through proxy', fig(amp.naive_proxy), `clients: ${statuses(amp.naive_proxy.client_statuses)}`);
  }
  const catalog = results.catalog_warm_up;
  if (catalog) {
    row(amp ? '' : '2 Upstream amplification', `reelgate, a cold catalog of ${n(catalog.media)} media, each asked once (${catalog.clients} clients)`,
      `${n(catalog.answered)} answered in **${catalog.minutes} min**: **${n(catalog.management_calls)} Management calls**, ` +
      `${n(catalog.delivery_calls)} Delivery API calls; ${n(catalog.retries_after_429_or_503)} retried after 429/503`,
      `before (${catalog.before.how}): ${n(catalog.before.management_calls)} Management calls, ${catalog.before.minutes_at_budget} min; ` +
      `clients: ${statuses(catalog.statuses)}`);
  }
  const size = results.embed_size;
  if (size) {
    row('3 Embed size', `${size.file} (unminified build ${n(size.unminified_bytes)} B)`,
      `raw = minified ${n(size.minified_bytes)} B · gzip **${kb(size.min_gzip_bytes)}** · brotli ${kb(size.min_brotli_bytes)}`,
      `budget ${kb(size.budget_min_gzip_bytes)} min+gzip: ${size.within_budget ? 'within' : '**over**'}` +
      (size.goal_min_gzip_bytes ? `; goal ${kb(size.goal_min_gzip_bytes)}: ${size.meets_goal ? '**met**' : '**not met**'}` : ''));
    row('', 'Lit\'s share (lit, lit-html, lit-element, @lit/reactive-element, @lit/task)',
      `${n(size.lit.min_bytes_in_bundle)} B minified (${size.lit.share_of_min_bytes} %) · ${n(size.lit.lit_min_gzip_bytes)} B min+gzip (${size.lit.share_of_min_gzip} %)`,
      `elements alone ${n(size.lit.elements_alone_min_gzip_bytes)} B min+gzip`);
    if (size.lit.alone) {
      row('', 'Lit alone (only the exports the elements import, one bundle)',
        `${n(size.lit.alone.min_bytes)} B minified · ${n(size.lit.alone.min_gzip_bytes)} B min+gzip`, 'what every element bundle starts from');
    }
    for (const [part, c] of Object.entries(size.chunks ?? {})) {
      const load = size.chunk_load?.[part];
      row('', `the player's ${part === 'kit' ? 'playback kit' : 'hls.js'} chunk (${c.file}, ${part === 'kit'
        ? 'with a player\'s first media' : 'only for HLS through MSE'})`,
      `${n(c.min_bytes)} B minified · gzip **${kb(c.min_gzip_bytes)}** · brotli ${kb(c.min_brotli_bytes)}`,
      load ? `import() ${load.loopback_median_ms} ms on loopback, ${load.slow_4g_median_ms} ms on slow 4G (median of ${size.chunk_load.runs})`
        : 'load time not measured');
    }
    for (const [tag, e] of Object.entries(size.elements ?? {})) {
      row('', `\`<${tag}>\` (its module alone, Lit inside: own = alone − Lit alone)`,
        `alone ${n(e.alone_min_gzip_bytes)} B min+gzip · own **${n(e.own_min_gzip_bytes)} B**`,
        `adds ${n(e.marginal_min_gzip_bytes)} B to the full bundle`);
    }
    if (size.elements) {
      row('', 'shared modules and gzip overlap', `${n(size.shared_and_overlap_min_gzip_bytes)} B min+gzip`,
        'full bundle − Lit alone − every element\'s addition');
    }
  }
  if (Array.isArray(results.render_cost)) {
    results.render_cost.forEach((r, i) => row(i === 0 ? '4 Render cost (Chromium)' : '',
      `\`<reel-playlist>\`, ${n(r.items)} items (median of ${r.runs})`,
      `${r.element_median_ms} ms data→painted vs plain DOM ${r.plain_dom_median_ms} ms`,
      `**${r.ratio}×** plain DOM${r.same_markup ? ` (same ${n(r.element_nodes)} nodes)` : ' (markup differs!)'}`));
  } else if (results.render_cost) {
    row('4 Render cost (Chromium)', 'skipped', results.render_cost.skipped, '');
  }
  const geo = results.geo_decisions;
  if (geo) {
    row('5 Geo decisions', `${n(geo.visitors)} new visitors (every address the sandbox can place) at the \`europe\` gate, ten at a time`,
      `**${geo.complete_share} %** decided on complete information · ${n(geo.geo_lookups)} Geo API lookups, ` +
      `${n(geo.upstream_429s)} upstream 429s; ${n(geo.duration_s)} s`,
      `the rest: the policy's \`unknown\` rule (deny), never a proxy let through`);
  }
  if (results.playback) {
    playbackRows(results.playback).forEach((line, i) => rows.push(i === 0 ? line : line.replace(/^\| 6 Geo-bound playback \|/, '|  |')));
  }
  if (results.url_signing) signingRows(results.url_signing).forEach((line) => rows.push(line));
  if (results.metrics_recording) metricsRows(results.metrics_recording).forEach((line) => rows.push(line));
  const m = results.machine;
  if (m) row('9 Machine', `${m.cores} cores (${m.cpu}), ${m.memory_gib} GiB, ${m.os}`,
    `Node ${m.node} · wrangler ${m.wrangler} · workerd ${m.workerd} · ${m.chromium} · autocannon ${m.autocannon}`,
    `esbuild ${m.esbuild} · lit ${m.lit}`);
  return ['| Section | Case | Figures | Compared with |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/**
 * Section 1's rows: on direct workerd sockets (the figures the goal is judged on), then, labelled, the same
 * cases under `wrangler dev` as in earlier runs. Reads the results of earlier runs too (`edge_overhead` in the old shape).
 */
export function edgeRows(results) {
  const rows = [];
  const row = (subject, figures, compared) => rows.push(`| ${rows.length ? '' : '1 Edge overhead'} | ${subject} | ${figures} | ${compared} |`);
  const edge = results.edge_overhead;
  const dev = results.edge_overhead_wrangler_dev ?? (edge && !edge.method ? edge : null);
  if (edge?.method) {
    const fixedRate = edge.fixed_load.requests_per_second;
    const fig = (r) => `${n(r.requests_per_second)} req/s · ${n(r.cpu_us_per_request)} µs CPU per request` +
      (r.fixed_load ? ` · at ${n(fixedRate)} req/s: p50 ${r.fixed_load.latency_ms.p50} ms, p99 ${r.fixed_load.latency_ms.p99} ms` : '');
    const ratios = (v, strong) => {
      const rate = strong ? `**${v.requests_per_second_ratio}×**` : `${v.requests_per_second_ratio}×`;
      const p99 = v.p99_ratio === undefined ? '' : `, p50 ${v.p50_ratio}×, p99 ${strong ? `**${v.p99_ratio}×**` : `${v.p99_ratio}×`} at ${n(fixedRate)} req/s`;
      return `${rate} req/s (rounds ${Math.min(...v.requests_per_second_ratio_per_round)}–${Math.max(...v.requests_per_second_ratio_per_round)}), ` +
        `${v.cpu_per_request_ratio}× CPU per request${p99}`;
    };
    row(`direct workerd sockets (${edge.connections} connections, ${edge.rounds} rounds of ${edge.seconds_per_round} s; fixed load ` +
      `${n(fixedRate)} req/s, ${edge.fixed_load.rounds} rounds of ${edge.fixed_load.seconds_per_round} s): hello-world Worker with ` +
      "reelgate's VISITOR_LIMIT call and [assets]", fig(edge.baseline), 'baseline');
    const bare = edge.bare_hello_world;
    if (bare) row('hello-world Worker without [assets] (no assets router in front)', fig(bare), `${ratios(bare.versus_hello_world, false)} of hello-world`);
    const replay = edge.replayed_feed_answer;
    row(`hello-world Worker replaying the cached feed's answer (${n(replay.body_bytes)} B, ${replay.header_count} headers)`, fig(replay),
      `${ratios(replay.versus_hello_world, false)} of hello-world: the ceiling for that answer here`);
    for (const r of [edge.cached_feed, edge.cached_geo]) {
      const goal = `goal ${edge.goal.requests_per_second_ratio}× and ${edge.goal.fixed_load_p99_ratio}×: ${r.meets_goal ? '**met**' : '**not met**'}`;
      row(`${r.case}; ${n(r.upstream_calls_during_runs)} upstream calls; ${statuses(r.statuses)}`, fig(r),
        `${ratios(r.versus_hello_world, true)} of hello-world${r.versus_replay ? `; ${r.versus_replay.requests_per_second_ratio}× req/s of the replay` : ''}` +
        (r.versus_hello_world_without_assets ? `; ${r.versus_hello_world_without_assets.requests_per_second_ratio}× req/s, ` +
          `${r.versus_hello_world_without_assets.cpu_per_request_ratio}× CPU of the one without [assets]` : '') + `; ${goal}`);
    }
  }
  if (dev) {
    const label = dev.label ?? 'under wrangler dev';
    const fig = (r) => `${n(r.requests_per_second)} req/s · p50 ${r.latency_ms.p50} ms · p99 ${r.latency_ms.p99} ms` +
      (r.server_cpu_us_per_request ? ` · ${n(r.server_cpu_us_per_request)} µs CPU per request (all its processes)` : '');
    const cpu = (v) => (v.cpu_per_request_ratio ? `, ${v.cpu_per_request_ratio}× CPU per request` : '');
    row(`${label}: hello-world Worker, no limit call (${dev.connections} connections, ${dev.seconds_per_run} s)`, fig(dev.baseline), 'baseline');
    const replay = dev.replayed_feed_answer;
    if (replay) {
      const v = replay.versus_hello_world;
      row(`${label}: ${replay.case} (${n(replay.body_bytes)} B, ${replay.header_count} headers, same visitors); ${statuses(replay.statuses)}`, fig(replay),
        `${v.requests_per_second_ratio}× req/s, ${v.p50_ratio}× p50, ${v.p99_ratio}× p99 of hello-world${cpu(v)}`);
    }
    for (const r of [dev.cached_feed, dev.cached_geo]) {
      const v = r.versus_hello_world;
      const w = r.versus_replay;
      row(`${label}: ${r.case}; ${n(r.upstream_calls_during_run)} upstream calls; ${statuses(r.statuses)}`, fig(r),
        `${v.requests_per_second_ratio}× req/s, ${v.p50_ratio}× p50, ${v.p99_ratio}× p99 of hello-world${cpu(v)}` +
        (w ? `; ${w.requests_per_second_ratio}× req/s, ${w.p99_ratio}× p99 of the replay` : ''));
    }
  }
  return rows;
}

/** Section 6's rows: direct workerd sockets (the figures the goal is judged on), then `wrangler dev` for comparison. */
export function playbackRows(play) {
  const rows = [];
  const row = (subject, figures, compared) => rows.push(`| ${rows.length ? '' : '6 Geo-bound playback'} | ${subject} | ${figures} | ${compared} |`);
  const mem = (p) => `${p.rss_peak_mib} MiB (+${p.growth_mib} MiB), ${p.cpu_s} s CPU`;
  const ways = (d, label, judged) => {
    row(`${n(play.file_mib)} MiB file, direct workerd sockets, ${label}, median of ${d.rounds}: straight from the sandbox CDN`,
      `${d.direct_mib_per_s} MiB/s · TTFB ${d.direct_ttfb_median_ms} ms`, 'baseline');
    row('through a bare pass-through Worker', `${d.pass_through_mib_per_s} MiB/s · TTFB ${d.pass_through_ttfb_median_ms} ms`,
      `${(d.pass_through_mib_per_s / d.direct_mib_per_s).toFixed(2)}× direct`);
    const cdn = d.processes_while_streaming.cdn_workerd;
    const ratio = judged ? `**${d.throughput_ratio_vs_direct}×** direct (goal ${play.goal_ratio_vs_direct}×)` : `${d.throughput_ratio_vs_direct}× direct`;
    row('through reelgate\'s playback URL (token, geo and network checks, record lookup)',
      `${d.worker_mib_per_s} MiB/s · TTFB ${d.worker_ttfb_median_ms} ms · reelgate's workerd: peak RSS ${mem(d.worker_memory)}` +
      (cdn ? ` (the CDN's: ${cdn.cpu_s} s CPU)` : ''),
      `${ratio}, ${d.throughput_ratio_vs_pass_through}× pass-through`);
  };
  if (play.direct_sockets) ways(play.direct_sockets, play.pace_mib_per_s ? `CDN paced at ${play.pace_mib_per_s} MiB/s` : 'unpaced', true);
  if (play.direct_sockets_unpaced) ways(play.direct_sockets_unpaced, 'CDN unpaced (loopback, two shared cores)', false);
  const w = play.wrangler_dev;
  if (w) {
    const p = w.processes_while_streaming;
    row(`the same under \`wrangler dev\` (as earlier runs; ${w.rounds} round): direct`, `${w.direct_mib_per_s} MiB/s · TTFB ${w.direct_ttfb_median_ms} ms`, 'baseline');
    row('through the pass-through Worker', `${w.pass_through_mib_per_s} MiB/s · TTFB ${w.pass_through_ttfb_median_ms} ms`,
      `${(w.pass_through_mib_per_s / w.direct_mib_per_s).toFixed(2)}× direct`);
    row('through reelgate', `${w.worker_mib_per_s} MiB/s · TTFB ${w.worker_ttfb_median_ms} ms · user worker's workerd ${mem(p.user_workerd)}; ` +
      `wrangler's dev proxy: workerd ${mem(p.proxy_workerd)}, Node ${mem(p.wrangler_node)}`,
      `${w.throughput_ratio_vs_direct}× direct, ${w.throughput_ratio_vs_pass_through}× pass-through`);
  }
  if (play.passed_on) row('passed on by the playback URL (checked against the CDN)', play.passed_on.join(', '), 'HEAD and a range');
  return rows;
}

/** Section 7's rows: each answer signed, then the same with signing off and on the plain site; then what signing costs. */
export function signingRows(sig) {
  const rows = [];
  const row = (subject, figures, compared) => rows.push(`| ${rows.length ? '' : '7 URL signing (sealed origin)'} | ${subject} | ${figures} | ${compared} |`);
  const fig = (r) => `${n(r.requests_per_second)} req/s · mean ${r.latency_ms.mean} ms · p99 ${r.latency_ms.p99} ms · ` +
    `worker CPU ${r.worker_cpu_us_per_request} µs/answer`;
  const urls = (r) => `${r.urls.platform} platform URLs, ${r.urls.signed} signed; ${n(r.body_bytes)} B`;
  const ratio = (v, what) => `**${v.requests_per_second}×** req/s, ${v.mean_latency}× mean, ${v.p99_latency}× p99, ` +
    `**${v.worker_cpu_per_request}×** worker CPU of ${what}`;
  const spread = (v) => {
    const each = v.rounds.map((x) => x.requests_per_second);
    return `req/s ratio per round ${Math.min(...each)}–${Math.max(...each)}`;
  };
  const load = `direct workerd sockets, ${sig.connections} connections, median of ${sig.rounds} rounds of ${sig.seconds_per_round} s`;
  for (const [kind, label] of [['media', 'media answer'], ['feed', 'feed page']]) {
    const k = sig[kind];
    if (!k) continue;
    const what = (r) => (kind === 'media' ? r.shape : `${r.items} items`);
    row(`${label} (HIT), ${sig.signing_site} signed by the shipped worker (${what(k.signed)}; ${urls(k.signed)}; ${load}); ` +
      `${statuses(k.signed.statuses)}`, fig(k.signed), `${ratio(k.ratio, 'signing off')} (${spread(k.ratio)}); ${ratio(k.ratio_vs_unsigned_site, sig.unsigned_site)}`);
    row(`the same ${label}, signing off (same bundle, no \`url_signing\` for ${sig.signing_site}; ${urls(k.unsigned)}); ` +
      `${statuses(k.unsigned.statuses)}`, fig(k.unsigned), 'baseline');
    row(`${label} (HIT) on ${sig.unsigned_site}, which signs nothing (${what(k.unsigned_site)}; ${urls(k.unsigned_site)}); ` +
      `${statuses(k.unsigned_site.statuses)}`, fig(k.unsigned_site), `${(k.unsigned_site.requests_per_second / k.unsigned.requests_per_second).toFixed(2)}× req/s of signing off (medians)`);
    const w = k.in_worker;
    if (w) {
      row(`the same three ${label}s inside workerd: ${n(w.answers_per_call)} in a row through a service binding per call, ` +
        `the cases alternating call by call, ${w.rounds} rounds`,
      `signed **${w.us_per_answer.signed} µs** · signing off ${w.us_per_answer.unsigned} µs · ${sig.unsigned_site} ` +
        `${w.us_per_answer.unsigned_site} µs per answer`,
      `**${w.ratio}×** signing off (median of the rounds' ratios, ${w.ratio_per_round.min}–${w.ratio_per_round.max}; ratio of the sums ` +
        `${w.ratio_of_sums}), ${w.ratio_vs_unsigned_site}× ${sig.unsigned_site}`);
    }
  }
  const w = sig.per_url_microseconds?.workerd;
  const node = sig.per_url_microseconds?.node;
  if (w) {
    row('one URL signed, fresh, in workerd (worker/signing/ as bundled)', `exp/sig (MD5) **${w.exp_sig} µs** · JWT (HS256) **${w.jwt} µs**`,
      node ? `Node (schemes.ts via esbuild): exp/sig ${node.exp_sig} µs, JWT ${node.jwt} µs; MD5 alone ${node.md5_alone} µs, ` +
        `HMAC-SHA-256 alone ${node.hmac_sha256_alone} µs` : '');
  }
  const a = sig.per_answer_microseconds;
  if (a) {
    row(`one answer's signatures in workerd: media (${a.media.platform_urls} URLs, ${a.media.distinct_urls} distinct)`,
      `first in a window **${a.media.fresh} µs** · remembered (every later HIT) **${a.media.remembered} µs**`,
      'signed on every HIT, from the memo' + (a.media.render_signed === undefined ? ''
        : `; rendering the answer (JSON and ETag) ${a.media.render_signed} µs signed, ${a.media.render_unsigned} µs unsigned`));
    row(`feed page (${a.feed.items} items, ${a.feed.platform_urls} URLs, ${a.feed.distinct_urls} distinct)`,
      `first in a window ${a.feed.fresh} µs · remembered ${a.feed.remembered} µs`, 'rendered once per window and held: its HITs sign nothing');
  }
  if (sig.upstream_calls_during_runs !== undefined) {
    row('checks', `${n(sig.upstream_calls_during_runs)} upstream calls during the runs; sandbox enforcement ${sig.sandbox_enforcement.before} → ` +
      `${sig.sandbox_enforcement.during} (section) → ${sig.sandbox_enforcement.after}`,
    `media URLs fetched, enforcement off: ${['signed', 'unsigned', 'unsigned_site'].map((c) => `${c} ${sig.url_checks[c].first_source}/` +
      `${sig.url_checks[c].poster}`).join(', ')} (source/poster)` + (sig.url_checks.enforced ? `; enforcement on again: signed source ` +
      `${sig.url_checks.enforced.signed}, unsigned ${sig.url_checks.enforced.unsigned}` : ''));
  }
  return rows;
}

/** Section 8's rows: the cached feed with metrics recording on (as shipped), then off; what each instance counted. */
export function metricsRows(met) {
  const rows = [];
  const row = (subject, figures, compared) => rows.push(`| ${rows.length ? '' : '8 Metrics recording'} | ${subject} | ${figures} | ${compared} |`);
  const fig = (r) => `${n(r.requests_per_second)} req/s · p50 ${r.latency_ms.p50} ms · p99 ${r.latency_ms.p99} ms · ` +
    `worker CPU ${(r.worker_cpu_us_per_request / 1000).toFixed(3)} ms/answer`;
  const load = `direct workerd sockets, ${met.connections} connections, median of ${met.rounds} rounds of ${met.seconds_per_round} s`;
  const r = met.ratio_per_round;
  row(`cached feed (HIT), ${met.site}'s manual playlist (${met.items} items, ${n(met.body_bytes.on)} B), recording on as shipped ` +
    `(flush every ${met.metrics_config.on.flush_seconds} s; ${load}); ${statuses(met.on.statuses)}`, fig(met.on),
  `**${met.ratio}×** req/s of recording off (goal ≥ ${met.goal_ratio}: ${met.meets_goal ? 'met' : '**not met**'}; per round ${r.min}–${r.max}), ` +
    `${met.latency_ratio.p50}× p50, ${met.latency_ratio.p99}× p99, **${met.cpu_ratio}×** worker CPU per answer`);
  row(`the same page, \`metrics.record\` false (same bundle, same workerd process); ${statuses(met.off.statuses)}`, fig(met.off), 'baseline');
  const counted = (c) => (c.error ? `unread (${c.error})` : `${n(c.requests)} requests, ${n(c.feed_hits)} feed HITs`);
  row('checks', `counted by recording on: ${counted(met.recorded.on)} (${n(met.recorded.answered_on)} answered in the runs); ` +
    `by recording off: ${counted(met.recorded.off)}`, `${n(met.upstream_calls_during_runs)} upstream calls during the runs`);
  return rows;
}
