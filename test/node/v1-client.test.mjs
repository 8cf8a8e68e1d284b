// The platform's official v1 Node client (npm `jwplatform`, pinned in package.json) against the /v1 compatibility
// layer, unmodified: it signs every call itself (api_key = the access key's id, api_secret = its v1 secret), sends
// its parameters its own way (some POSTs in both query and body, GETs with a body too) and parses the v1 answers. Only
// its base address is pointed at the worker. The stack is the storm suite's: the real worker and sandbox in workerd,
// reached over real HTTP on loopback (test/storm/stack.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import JWPlatformAPI from 'jwplatform';
import { SECRETS, send, startStack } from '../storm/stack.mjs';

let stack;
let site;
let api;

/** A v1 client for a new access key limited to `site`, as an operator hands it over: key id and v1 secret. */
async function v1Client(scopes) {
  const created = await send(stack.origin, '/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'legacy v1 cms', scopes, sites: [site.id] }),
  });
  assert.equal(created.status, 201, created.text);
  const { id, v1_secret: secret } = JSON.parse(created.text);
  const client = new JWPlatformAPI({ apiKey: id, apiSecret: secret, timeout: 30_000 });
  // The one setting changed: where the client sends its calls (its default is the platform's v1 address).
  client._client.baseUrl = `${stack.origin}/v1/`;
  return client;
}

/** A v2 list read straight from the sandbox, to compare with what the v1 client was told. */
const v2 = (path) => stack.sandbox.v2(`/v2/sites/${site.id}/${path}`);

/** The v1 error body of a refused call (request-promise rejects with the parsed body as `error`). */
async function v1Refusal(call) {
  try {
    await call;
  } catch (error) {
    return { status: error.statusCode, body: error.error };
  }
  assert.fail('the call was expected to be refused');
}

before(async () => {
  stack = await startStack();
  site = (await stack.sandbox.catalog()).sites[0];
  api = await v1Client(['read', 'write']);
});

after(async () => {
  await stack?.stop();
});

test('videos list and show, with v1 paging at any offset and the rate_limit object', async () => {
  const list = await api.videos.list({ result_limit: 5, result_offset: 3 });
  const expected = (await v2('media/?page=1&page_length=8')).media.slice(3, 8);
  assert.equal(list.status, 'ok');
  assert.deepEqual(list.videos.map((v) => v.key), expected.map((m) => m.id));
  assert.equal(list.limit, 5);
  assert.equal(list.offset, 3);
  assert.equal(typeof list.total, 'number');
  assert.deepEqual(Object.keys(list.rate_limit).sort(), ['limit', 'remaining', 'reset']);

  const show = await api.videos.show({ video_key: expected[0].id });
  assert.equal(show.status, 'ok');
  assert.equal(show.video.key, expected[0].id);
  assert.equal(show.video.title, expected[0].metadata.title);
  assert.equal(typeof show.video.date, 'number');
});

test('search and statuses_filter become v2 q', async () => {
  const sample = (await v2('media/?page=1&page_length=1')).media[0];
  const word = sample.metadata.title.split(' ')[0];
  const found = await api.videos.list({ search: word, result_limit: 50 });
  assert.ok(found.videos.some((v) => v.key === sample.id));
  assert.ok(found.videos.every((v) => JSON.stringify(v).toLowerCase().includes(word.toLowerCase())));

  const failed = await api.videos.list({ statuses_filter: 'failed', result_limit: 50 });
  const q = encodeURIComponent('status:failed');
  assert.equal(failed.total, (await v2(`media/?q=${q}`)).total);
  assert.ok(failed.total > 0);
  assert.ok(failed.videos.every((v) => v.status === 'failed'));
});

test('channels, players, conversions and tracks read through', async () => {
  const channels = await api.channels.list({ result_limit: 2 });
  assert.equal(channels.channels.length, 2);
  const channel = await api.channels.show({ channel_key: channels.channels[0].key });
  assert.equal(channel.channel.key, channels.channels[0].key);
  const players = await api.players.list();
  assert.ok(players.players.length > 0);
  const player = await api.players.show({ player_key: players.players[0].key });
  assert.equal(player.player.key, players.players[0].key);

  const media = site.media?.with_subtitles?.[0] ?? (await v2('media/?page=1&page_length=1')).media[0].id;
  const conversions = await api.videos.conversions.list({ video_key: media });
  assert.equal(conversions.status, 'ok');
  assert.ok(Array.isArray(conversions.conversions));
  const tracks = await api.videos.tracks.list({ video_key: media });
  assert.equal(tracks.status, 'ok');
});

test('tags update and delete, and usage show', async () => {
  const count = async (q) => (await v2(`media/?q=${encodeURIComponent(q)}`)).total;
  const before = await count('tags:football');
  const either = await count('tags:football OR tags:soccer');
  assert.ok(before > 0);
  // The platform accepts a tag action (202) and reports nothing about it: v1 says ok, and the tags did change.
  const renamed = await api.accounts.tags.update({ tag: 'football', tag_new: 'soccer' });
  assert.equal(renamed.status, 'ok');
  assert.equal(renamed.tag, undefined);
  assert.equal(await count('tags:football'), 0);
  assert.equal(await count('tags:soccer'), either);

  const deleted = await api.accounts.tags.delete({ tag: 'soccer' });
  assert.equal(deleted.status, 'ok');
  assert.equal(await count('tags:soccer'), 0);

  const usage = await api.accounts.usage.show({ start_date: '2026-01-01', end_date: '2026-01-31' });
  assert.equal(usage.status, 'ok');
  assert.equal(usage.usage.account_key, site.id);
  assert.equal(typeof usage.usage.plays, 'number');
});

test('writes the layer does not translate answer NotImplemented naming the v2 route; dropped routes NotSupported', async () => {
  const create = await v1Refusal(api.videos.create({ title: 'From a v1 CMS' }));
  assert.equal(create.status, 501);
  assert.equal(create.body.status, 'error');
  assert.equal(create.body.code, 'NotImplemented');
  assert.match(create.body.message, /POST \/v2\/sites\/<site_id>\/media\//);

  const update = await v1Refusal(api.videos.update({ video_key: 'abcd1234', title: 'x' }));
  assert.equal(update.body.code, 'NotImplemented');
  assert.match(update.body.message, /PATCH \/v2\/sites\/<site_id>\/media\/<media_id>\//);

  const tags = await v1Refusal(api.accounts.tags.list());
  assert.equal(tags.status, 410);
  assert.equal(tags.body.code, 'NotSupported');
});

test('errors come as the v1 object: unknown video, missing parameter, a read-only key writing, a wrong secret', async () => {
  const missing = await v1Refusal(api.videos.show({ video_key: 'zzzzzzzz' }));
  assert.deepEqual({ status: missing.status, code: missing.body.code }, { status: 404, code: 'NotFound' });
  assert.deepEqual(Object.keys(missing.body).sort(), ['code', 'message', 'status', 'title']);
  assert.equal((await v1Refusal(api.videos.show())).body.code, 'ParamMissing');

  const reader = await v1Client(['read']);
  const denied = await v1Refusal(reader.accounts.tags.delete({ tag: 'news' }));
  assert.deepEqual({ status: denied.status, code: denied.body.code }, { status: 403, code: 'PermissionDenied' });

  const wrong = new JWPlatformAPI({ apiKey: reader._client._apiKey, apiSecret: 'rgv1_not-the-secret', timeout: 30_000 });
  wrong._client.baseUrl = `${stack.origin}/v1/`;
  const refused = await v1Refusal(wrong.videos.list());
  assert.deepEqual({ status: refused.status, code: refused.body.code }, { status: 401, code: 'SignatureInvalid' });
});
