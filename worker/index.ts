// Placeholder until the edge worker lands (issue 3): every route is unknown.
export default {
  async fetch(): Promise<Response> {
    return Response.json({ errors: [{ code: 'not_found', description: 'No such route.' }] }, { status: 404 });
  },
} satisfies ExportedHandler;
