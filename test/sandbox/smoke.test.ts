import { beforeEach, expect, it } from 'vitest';
import { callJson, reset, sites } from './helpers.ts';

beforeEach(() => reset());

it('smoke', async () => {
  const { big } = await sites();
  console.log(JSON.stringify(big, null, 1));
  const list = await callJson('GET', `/v2/sites/${big.id}/media/?page_length=2`);
  console.log(list.status, JSON.stringify(list.body, null, 1).slice(0, 3000));
  expect(list.status).toBe(200);
});
