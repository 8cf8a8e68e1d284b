// Extracts the response schemas of the routes reelgate calls from the platform's published Management API v2
// definition (OpenAPI 3.1) into test/platform/schemas.json, which the conformance checks read
// (worker/docs/public-api.md, "What the worker reads from the platform").
//
//   node test/platform/extract-schemas.mjs <openapi.json>... [--out test/platform/schemas.json] [--merge]
//   node test/platform/extract-schemas.mjs --additions-only [--out test/platform/schemas.json]
//
// Several inputs are read as one definition (their paths and components merged): parts of the definition copied out
// one route family at a time read the same as the whole file. `--merge` keeps the routes the output already holds
// that the inputs do not name (a family extracted earlier), so the families can be brought in one by one.
//
// What it does to each schema, and why:
// - drops prose (`description`, `summary`, `example(s)`, `x-*`): it never constrains an answer;
// - resolves `$ref`s and turns OpenAPI 3.0's `nullable` into a JSON Schema type union, so any 2020-12 validator reads it;
// - closes every object (`unevaluatedProperties: false` where the definition leaves it open and lists properties, and
//   on the node holding a composition rather than on a member the definition closes by itself) and
//   requires every property it lists, unless OPTIONAL below says the platform leaves it out: the sandbox must send
//   exactly what the definition documents, so a missing field or an invented one fails the check;
// - keeps only routes under ROUTE_PREFIXES (the ones the worker, the gateway or the sandbox serve).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROUTE_PREFIXES = [
  '/v2/sites/{site_id}/media/',
  '/v2/sites/{site_id}/playlists/',
  '/v2/sites/{site_id}/players/',
  '/v2/sites/{site_id}/thumbnails/',
  '/v2/sites/{site_id}/remove_tag/',
  '/v2/sites/{site_id}/rename_tag/',
  '/v2/sites/{site_id}/query_usage/',
  '/v2/uploads/',
];

/** Where each resource's answers are: its single answers (`<route> <status>`) and its list answer with the list's key. */
const RESOURCES = {
  player: {
    single: ['POST /v2/sites/{site_id}/players/ 201', 'GET /v2/sites/{site_id}/players/{player_id}/ 200',
      'PATCH /v2/sites/{site_id}/players/{player_id}/ 200'],
    list: ['GET /v2/sites/{site_id}/players/ 200', 'players'],
  },
  media: {
    single: ['POST /v2/sites/{site_id}/media/ 201', 'GET /v2/sites/{site_id}/media/{media_id}/ 200',
      'PATCH /v2/sites/{site_id}/media/{media_id}/ 200', 'PUT /v2/sites/{site_id}/media/{media_id}/reupload/ 200'],
    list: ['GET /v2/sites/{site_id}/media/ 200', 'media'],
  },
  rendition: {
    single: ['POST /v2/sites/{site_id}/media/{media_id}/media_renditions/ 201',
      'GET /v2/sites/{site_id}/media/{media_id}/media_renditions/{rendition_id}/ 200'],
    list: ['GET /v2/sites/{site_id}/media/{media_id}/media_renditions/ 200', 'media_renditions'],
  },
  original: {
    single: ['POST /v2/sites/{site_id}/media/{media_id}/originals/ 201',
      'GET /v2/sites/{site_id}/media/{media_id}/originals/{original_id}/ 200'],
    list: ['GET /v2/sites/{site_id}/media/{media_id}/originals/ 200', 'originals'],
  },
  playlist: {
    single: ['GET /v2/sites/{site_id}/playlists/{playlist_id}/ 200'],
    list: ['GET /v2/sites/{site_id}/playlists/ 200', 'playlists'],
  },
  textTrack: {
    single: ['POST /v2/sites/{site_id}/media/{media_id}/text_tracks/ 201',
      'GET /v2/sites/{site_id}/media/{media_id}/text_tracks/{track_id}/ 200',
      'PATCH /v2/sites/{site_id}/media/{media_id}/text_tracks/{track_id}/ 200'],
    list: ['GET /v2/sites/{site_id}/media/{media_id}/text_tracks/ 200', 'text_tracks'],
  },
};

/** The typed playlist answers (create, show, update) of each type: rules under `metadata`. */
const PLAYLIST_TYPES = ['manual', 'dynamic', 'article_matching', 'search', 'recommendations', 'watchlist'];
const FILTERED_TYPES = ['dynamic', 'article_matching', 'search', 'recommendations'];
function typedPlaylistAnswers(types) {
  return types.flatMap((type) => [`POST /v2/sites/{site_id}/playlists/${type}_playlist/ 201`,
    `GET /v2/sites/{site_id}/playlists/{playlist_id}/${type}_playlist/ 200`,
    `PATCH /v2/sites/{site_id}/playlists/{playlist_id}/${type}_playlist/ 200`]);
}

/** `paths` (dotted, relative to one resource) for every answer of the resource: a list answer's under `<key>[].`. */
function forResource(name, paths) {
  const { single, list: [listRoute, key] } = RESOURCES[name];
  const map = Object.fromEntries(single.map((route) => [route, paths]));
  const inList = Array.isArray(paths) ? paths.map((path) => `${key}[].${path}`)
    : Object.fromEntries(Object.entries(paths).map(([path, value]) => [`${key}[].${path}`, value]));
  return { ...map, [listRoute]: inList };
}

/** Per-route maps merged: a route named by several keeps every entry. */
function merged(...maps) {
  const out = {};
  for (const map of maps) {
    for (const [route, value] of Object.entries(map)) {
      out[route] = Array.isArray(value) ? [...(out[route] ?? []), ...value] : { ...(out[route] ?? {}), ...value };
    }
  }
  return out;
}

/**
 * Members the definition lists but the platform sends only in some answers: `<route key> <status>` → dotted paths
 * (`[]` for array items). Kept optional; everything else the definition lists is required.
 */
const OPTIONAL = merged(
  // A player links a recommendations playlist or an ad schedule only once one is chosen.
  forResource('player', ['relationships.recommendations_playlist', 'relationships.adschedule']),
  // A media names a protection rule only when one applies; a rendition names the template it was made from only when
  // it was made from one (the original's own conversions have none).
  forResource('media', ['relationships.protection_rule']),
  forResource('rendition', ['relationships.media_rendition_template']),
  // The upload link is in the answer that creates a track for a direct upload, and in no other.
  forResource('textTrack', ['upload_link']),
  // A media's create and re-upload answers say where to send the file only for the methods that send one.
  forEach(['POST /v2/sites/{site_id}/media/ 201', 'PUT /v2/sites/{site_id}/media/{media_id}/reupload/ 200'],
    ['upload_link', 'upload_id', 'upload_token']),
);

/**
 * Members the platform answers that the definition leaves out, each with the evidence, added as optional members at
 * the top of the answer: `<route key> <status>` → name → schema.
 */
const ADDITIONS = merged(
  // A direct or multipart upload's create (and re-upload) answer carries the upload's id, and a multipart one the
  // token the upload API takes: the official clients read both (jwplatform-py and -go's multipart uploads), and a
  // re-upload answers as a create does.
  forEach(['POST /v2/sites/{site_id}/media/ 201', 'PUT /v2/sites/{site_id}/media/{media_id}/reupload/ 200'], {
    upload_id: { type: 'string' }, upload_token: { type: 'string' }, upload_link: { type: 'string' },
  }),
  // A text track's status: the definition's own `delivery_url` is "only returned when the text track status is ready
  // or draft", its publish and unpublish routes move a track "from draft to ready" and back, jwplatform-go's
  // TextTrackResource has `Status` and its fixtures send "draft" and "created". Not in the definition's schema.
  forResource('textTrack', { status: { type: 'string', enum: ['created', 'processing', 'ready', 'draft', 'failed'] } }),
);

/**
 * Members the platform answers as null while unset. The definition was converted to OpenAPI 3.1 without 3.0's
 * `nullable` (no schema in it admits null), but the platform does send null: the official Go client's fixtures carry
 * `"error_message": nil` for renditions and text tracks, and an unscheduled media has no publish date to give.
 * Only members that can be unset are listed: `<route key> <status>` → dotted paths.
 */
const NULLABLE = merged(
  forResource('media', ['error_message', 'external_id', 'duration', 'mime_type', 'trim_in_point', 'trim_out_point',
    'metadata.description', 'metadata.author', 'metadata.permalink', 'metadata.category', 'metadata.language',
    'metadata.duration', 'metadata.publish_start_date', 'metadata.publish_end_date']),
  forResource('rendition', ['error_message', 'width', 'height']),
  forResource('original', ['error_message', 'md5', 'container_format', 'metadata.language', 'metadata.language_code']),
  forResource('textTrack', ['error_message', 'delivery_url']),
  forResource('playlist', ['metadata.description', 'metadata.author', 'metadata.link']),
  forEach(typedPlaylistAnswers(PLAYLIST_TYPES), ['metadata.description', 'metadata.author', 'metadata.link']),
  // A pinning slot nobody holds, a playlist without a recency limit.
  forEach(typedPlaylistAnswers(FILTERED_TYPES), ['metadata.pinning.slot1', 'metadata.pinning.slot2', 'metadata.recency']),
);

/**
 * Where the definition is narrower than the contract the platform honours (../shared/spec/upstream-apis.md), the
 * contract wins, and only there: `<route key> <status>` → dotted path → the schema put in its place.
 */
const ANY_MEMBERS = { type: 'object', additionalProperties: true };
const CORRECTIONS = merged(
  // The definition types setup_config's members as string, integer or object; the spec says it "accepts any option
  // the player supports and the API does not validate its members" (booleans such as `autostart`, arrays such as
  // `playbackRateControls`), and the official Go client reads it as map[string]interface{}.
  forResource('player', { 'metadata.setup_config': ANY_MEMBERS }),
  // The untyped answer's `playlist_type` enum leaves out recommendations, which the same member's description in the
  // definition lists and which has its own typed routes there (`recommendations_playlist`).
  forResource('playlist', { playlist_type: {
    type: 'string', enum: ['article_matching', 'dynamic', 'manual', 'recommendations', 'search', 'watchlist'],
  } }),
);

function forEach(keys, value) {
  return Object.fromEntries(keys.map((key) => [key, value]));
}

const PROSE = new Set(['description', 'summary', 'example', 'examples', 'externalDocs', '$comment', 'title']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function main(argv) {
  const outIndex = argv.indexOf('--out');
  const out = outIndex >= 0 ? argv[outIndex + 1] : fileURLToPath(new URL('./schemas.json', import.meta.url));
  const inputs = argv.filter((arg, index) => !arg.startsWith('--') && (outIndex < 0 || index !== outIndex + 1));
  if ((inputs.length === 0 && !argv.includes('--additions-only')) || (outIndex >= 0 && !out)) {
    console.error('usage: node test/platform/extract-schemas.mjs <openapi.json>... [--out FILE] [--merge]');
    process.exit(2);
  }
  if (argv.includes('--additions-only')) {
    const document = JSON.parse(readFileSync(out, 'utf8'));
    for (const [at, additions] of Object.entries(ADDITIONS)) {
      const [method, path, status] = at.split(' ');
      const responses = document.routes[`${method} ${path}`];
      if (responses?.[status]) responses[status] = addToClosed(responses[status], additions);
    }
    writeFileSync(out, `${JSON.stringify(document, null, 1)}\n`);
    console.log(`additions put into ${out}`);
    return;
  }
  const definition = inputs.map((input) => JSON.parse(readFileSync(input, 'utf8'))).reduce(mergeDefinitions);
  const routes = {};
  for (const [path, item] of Object.entries(definition.paths ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (!ROUTE_PREFIXES.some((prefix) => path.startsWith(prefix) || `${path}/` === prefix)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const responses = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const schema = resolve(definition, response)?.content?.['application/json']?.schema;
        const at = `${key} ${status}`;
        responses[status] = schema === undefined ? null
          : strict(withAdditions(normalise(definition, schema), ADDITIONS[at]), OPTIONAL[at] ?? [], CORRECTIONS[at] ?? {},
            NULLABLE[at] ?? []);
      }
      routes[key] = responses;
    }
  }
  if (argv.includes('--merge') && existsSync(out)) {
    const earlier = JSON.parse(readFileSync(out, 'utf8')).routes ?? {};
    for (const [key, responses] of Object.entries(earlier)) routes[key] ??= responses;
  }
  const sorted = Object.fromEntries(Object.entries(routes).sort(([a], [b]) => a.localeCompare(b)));
  const info = definition.info ?? {};
  const document = {
    $comment: 'Generated by test/platform/extract-schemas.mjs from the platform\'s published definition; do not edit by hand.',
    source: { title: info.title ?? null, version: info.version ?? null, openapi: definition.openapi ?? null },
    routes: sorted,
  };
  writeFileSync(out, `${JSON.stringify(document, null, 1)}\n`);
  console.log(`${Object.keys(sorted).length} routes written to ${out}`);
}

/** Two parts of one definition as one: paths and component sections merged, the first part's info kept. */
function mergeDefinitions(a, b) {
  const components = { ...(a.components ?? {}) };
  for (const [section, entries] of Object.entries(b.components ?? {})) {
    components[section] = { ...(components[section] ?? {}), ...entries };
  }
  return { ...b, ...a, paths: { ...(a.paths ?? {}), ...(b.paths ?? {}) }, components };
}

/** A `$ref` followed (local references only: the definition inlines everything else). */
function resolve(definition, node) {
  let current = node;
  const seen = new Set();
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new Error(`circular $ref ${current.$ref}`);
    seen.add(current.$ref);
    current = current.$ref.replace(/^#\//, '').split('/').reduce((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], definition);
  }
  return current;
}

/** Prose dropped, references resolved, `nullable` as a type union. */
function normalise(definition, node) {
  node = resolve(definition, node);
  if (Array.isArray(node)) return node.map((member) => normalise(definition, member));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (PROSE.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, normalise(definition, schema)]));
    } else if (key === 'enum' || key === 'const' || key === 'default' || key === 'required') {
      out[key] = value;
    } else {
      out[key] = normalise(definition, value);
    }
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'];

/**
 * Every object closed and every listed property required, except `optional` paths. A composition's members are not
 * closed one by one (each would refuse its siblings' properties): the node holding them is, and 2020-12's
 * `unevaluatedProperties` sees what every member evaluated.
 */
function strict(node, optional, corrections, nullable, at = '', member = false) {
  if (Array.isArray(node)) return node.map((entry) => strict(entry, optional, corrections, nullable, at, member));
  if (node === null || typeof node !== 'object') return node;
  const out = { ...node };
  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([name, schema]) => {
      const path = at ? `${at}.${name}` : name;
      const schemaAt = corrections[path] ?? strict(schema, optional, corrections, nullable, path);
      return [name, nullable.includes(path) ? orNull(schemaAt) : schemaAt];
    }));
    const listed = Object.keys(out.properties).filter((name) => !optional.includes(at ? `${at}.${name}` : name));
    out.required = [...new Set([...(out.required ?? []), ...listed])];
  }
  for (const keyword of COMPOSITIONS) {
    if (Array.isArray(out[keyword])) out[keyword] = out[keyword].map((entry) => strict(entry, optional, corrections, nullable, at, true));
  }
  if (out.items) out.items = strict(out.items, optional, corrections, nullable, `${at}[]`);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = strict(out.additionalProperties, optional, corrections, nullable, `${at}.*`);
  }
  // A member the definition closes on its own (`additionalProperties: false`, as its rendition is) would refuse its
  // siblings' members (the base resource's id, schema, ...), which the platform does send: the node holding the
  // composition is closed instead, and its `unevaluatedProperties` sees every member's properties.
  if (member && out.additionalProperties === false && out.properties) delete out.additionalProperties;
  const open = out.additionalProperties === undefined && out.unevaluatedProperties === undefined;
  if (!member && namesProperties(out) && open) {
    out.unevaluatedProperties = false;
  }
  return out;
}

/** The answer's schema with `additions` as members of its top level (listed, so closing it keeps them). */
function withAdditions(schema, additions) {
  if (!additions) return schema;
  const { top, inLists } = splitAdditions(additions);
  let out = schema;
  for (const [key, members] of Object.entries(inLists)) {
    out = mapListItems(out, key, (items) => withAdditions(items, members));
  }
  const listed = new Set(membersNamed(out));
  const extra = Object.fromEntries(Object.entries(top).filter(([name]) => !listed.has(name)));
  return Object.keys(extra).length ? { allOf: [out, { type: 'object', properties: extra }] } : out;
}

/** Additions by where they go: the answer's top (`name`) or each item of one of its lists (`key[].name`). */
function splitAdditions(additions) {
  const top = {};
  const inLists = {};
  for (const [path, schema] of Object.entries(additions)) {
    const match = /^([^.[\]]+)\[\]\.(.+)$/.exec(path);
    if (match) (inLists[match[1]] ??= {})[match[2]] = schema;
    else top[path] = schema;
  }
  return { top, inLists };
}

/** The schema with `fn` applied to the item schema of its list member `key`, wherever its compositions list it. */
function mapListItems(schema, key, fn) {
  if (!schema || typeof schema !== 'object') return schema;
  const out = { ...schema };
  if (out.properties?.[key]?.items) out.properties = { ...out.properties, [key]: { ...out.properties[key], items: fn(out.properties[key].items) } };
  for (const keyword of COMPOSITIONS) {
    if (out[keyword]) out[keyword] = out[keyword].map((member) => mapListItems(member, key, fn));
  }
  return out;
}

/**
 * `--additions-only`: ADDITIONS put into an extraction already made, without the definition (for a departure found
 * after the extraction). An answer closed at a composition gets the members as one more member of it, so its
 * `unevaluatedProperties` sees them; an answer closed by its own `properties` gets them there. Optional, as always.
 */
function addToClosed(schema, additions) {
  const { top, inLists } = splitAdditions(additions);
  let out = schema;
  for (const [key, members] of Object.entries(inLists)) out = mapListItems(out, key, (items) => addToClosed(items, members));
  const listed = new Set(membersNamed(out));
  const extra = Object.fromEntries(Object.entries(top).filter(([name]) => !listed.has(name)));
  if (!Object.keys(extra).length) return out;
  if (out.allOf) return { ...out, allOf: [...out.allOf, { type: 'object', properties: extra }] };
  return { ...out, properties: { ...(out.properties ?? {}), ...extra } };
}

/** The names a schema's top level lists, through its compositions. */
function membersNamed(schema) {
  return [...Object.keys(schema.properties ?? {}), ...COMPOSITIONS.flatMap((keyword) => (schema[keyword] ?? []).flatMap(membersNamed))];
}

/** A schema that also admits null. */
function orNull(schema) {
  return { anyOf: [schema, { type: 'null' }] };
}

/** Whether a schema, or an allOf member of it, lists properties: an object the definition describes member by member. */
function namesProperties(node) {
  return Boolean(node.properties) || (node.allOf ?? []).some(namesProperties);
}

main(process.argv.slice(2));
