// Placeholder until the sandbox lands (issue 2, section 3).
import { DurableObject } from 'cloudflare:workers';

export class SandboxState extends DurableObject {}

export default {
  async fetch(): Promise<Response> {
    return Response.json({ errors: [{ code: 'not_found', description: 'No such route.' }] }, { status: 404 });
  },
} satisfies ExportedHandler;
