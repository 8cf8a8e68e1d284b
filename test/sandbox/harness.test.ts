import { env } from 'cloudflare:test';
import { expect, it } from 'vitest';

it('the sandbox runs as a second worker beside the edge worker', async () => {
  const response = await env.SANDBOX.fetch('http://sandbox.test/nowhere');
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({ errors: [{ code: 'not_found', description: expect.any(String) }] });
});
