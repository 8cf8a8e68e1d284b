// An embed page speaks the visitor's language: the one its URL names (`?lang=`), else the best fit of the browser's
// `Accept-Language` (the answer then varies with it), else English. Its `<html lang>` says it, so the elements inside
// speak it too; Arabic is right to left; a refusal is in it as well. A `lang` that is no language tag is refused.
import { beforeEach, describe, expect, it } from 'vitest';
import { EMBED_WORDS } from '../../worker/embed/words.ts';
import { api, EUROPE_SITE, resetWorld } from './helpers.ts';
import { allMedia, isPublic } from './upstream-direct.ts';

const BERLIN = '192.0.2.30';
const NEW_YORK = '192.0.2.20';
const FRAME = { 'sec-fetch-dest': 'iframe', 'sec-fetch-mode': 'navigate' };

beforeEach(async () => {
  await resetWorld();
});

async function europeMedia(): Promise<{ id: string; title: string }> {
  const m = (await allMedia(EUROPE_SITE)).find((x) => isPublic(x))!;
  return { id: m.id, title: m.metadata.title };
}

const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0];
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('embed pages in the visitor\'s language', () => {
  it('speaks the language `?lang=` names: its <html lang>, and the words for visitors without scripts', async () => {
    const { id, title } = await europeMedia();
    const response = await api(`/embed/${EUROPE_SITE}/media/${id}?lang=de`, { ip: BERLIN, headers: FRAME });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(htmlTag(html)).toBe('<html lang="de">');
    expect(html).toContain(escaped(EMBED_WORDS.de!.needsScript.replace('{title}', title)));
    expect(response.headers.get('vary') ?? '').not.toMatch(/accept-language/i);
  });

  it('else the best fit of Accept-Language, and says that the answer varies with it', async () => {
    const { id } = await europeMedia();
    const response = await api(`/embed/${EUROPE_SITE}/media/${id}`,
      { ip: BERLIN, headers: { ...FRAME, 'accept-language': 'fi;q=1, fr-CA;q=0.9, en;q=0.5' } });
    expect(htmlTag(await response.text())).toBe('<html lang="fr">');
    expect(response.headers.get('vary')).toMatch(/accept-language/i);
    const plain = await api(`/embed/${EUROPE_SITE}/media/${id}`, { ip: BERLIN, headers: FRAME });
    expect(htmlTag(await plain.text())).toBe('<html lang="en">');
  });

  it('Arabic right to left; a language with no pack in English; a refusal in the visitor\'s language', async () => {
    const { id } = await europeMedia();
    const arabic = await api(`/embed/${EUROPE_SITE}/media/${id}?lang=ar`, { ip: BERLIN, headers: FRAME });
    expect(htmlTag(await arabic.text())).toBe('<html lang="ar" dir="rtl">');
    const finnish = await api(`/embed/${EUROPE_SITE}/media/${id}?lang=fi`, { ip: BERLIN, headers: FRAME });
    expect(htmlTag(await finnish.text())).toBe('<html lang="en">');
    const refused = await api(`/embed/${EUROPE_SITE}/media/${id}?lang=pt-PT`, { ip: NEW_YORK, headers: FRAME });
    expect(refused.status).toBe(451);
    const html = await refused.text();
    expect(htmlTag(html)).toBe('<html lang="pt-BR">');
    expect(html).toContain(escaped(EMBED_WORDS['pt-BR']!.refusal451));
    expect(html).toContain(`<title>${escaped(EMBED_WORDS['pt-BR']!.titleNotAvailable)}</title>`);
  });

  it('refuses a `lang` that is no language tag with a 400 page, never a 500', async () => {
    const { id } = await europeMedia();
    for (const lang of ['<script>', 'x'.repeat(40), '%FF', '']) {
      const response = await api(`/embed/${EUROPE_SITE}/media/${id}?lang=${encodeURIComponent(lang)}`,
        { ip: BERLIN, headers: FRAME });
      expect(response.status, lang).toBe(400);
      expect(await response.text()).toContain(EMBED_WORDS.en!.refusal400);
    }
  });

  it('has every language the elements have, each with every message, `{title}` kept', () => {
    const english = Object.keys(EMBED_WORDS.en!).sort();
    expect(Object.keys(EMBED_WORDS).sort()).toEqual(
      ['ar', 'de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pl', 'pt-BR', 'sv', 'tr', 'zh-CN']);
    for (const [lang, words] of Object.entries(EMBED_WORDS)) {
      expect(Object.keys(words).sort(), lang).toEqual(english);
      expect(words.needsScript.match(/\{title\}/g), lang).toHaveLength(1);
      for (const text of Object.values(words)) expect(text.trim(), lang).not.toBe('');
    }
  });
});
