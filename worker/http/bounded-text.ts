/**
 * A body read as UTF-8 text, never more than `limit` bytes of it: a declared `Content-Length` above the limit is
 * refused before a byte is read, and a body that grows past it is cancelled there, so an endless or huge stream
 * cannot exhaust memory. Text that is not UTF-8 is refused too. Shared by the gateway (request bodies) and playback
 * (upstream playlists); each turns the outcome into its own refusal.
 */
export type BoundedText = { ok: true; text: string } | { ok: false; reason: 'too_large' | 'not_utf8' };

export async function readBoundedUtf8(message: Request | Response, limit: number): Promise<BoundedText> {
  const declared = message.headers.get('content-length');
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) > limit) {
    await message.body?.cancel().catch(() => undefined);
    return { ok: false, reason: 'too_large' };
  }
  if (!message.body) return { ok: true, text: '' };
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const chunk = value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer);
    size += chunk.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, reason: 'too_large' };
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    // A leading byte order mark is dropped (ignoreBOM: false), as Response.text() drops it.
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { ok: false, reason: 'not_utf8' };
  }
}
