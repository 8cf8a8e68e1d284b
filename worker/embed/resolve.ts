/**
 * What an embed shows, decided exactly as the public API decides it: the media and feed resources
 * (worker/resources/) run through the same pipeline, from the same cache entries, so a refused caller gets 451 before
 * anything of the content is read. Shared by the embed pages and `/oembed`.
 */
import { checkMediaFiles, isPublished, NO_VARIANT } from '../catalog/index.ts';
import type { RequestContext } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { enforcePolicies, mediaPolicies, membershipFor } from '../geo/index.ts';
import { feed, loadInput, media, resolveInput } from '../resources/index.ts';
import type { EmbedTarget } from './targets.ts';

export interface Embeddable {
  title: string;
  /** Whether the answer depends on who asks (a policy applied): then nothing may store it for others. */
  personal: boolean;
  /**
   * A poster for oEmbed's `thumbnail_url`: the platform's URL for content under no policy, else the worker's own
   * playback URL (a path; bound to the caller's network and expiring like every playback URL). Null when none.
   */
  thumbnail: string | null;
}

export interface ResolveOptions {
  /**
   * Whether a thumbnail is wanted (oEmbed): the resource is then presented as the API would present it (a playlist's
   * first card, with its items' policies decided). Without one (an embed page), only its own policies and its title
   * count: the page is the same for everyone its policies allow, whatever binds the items its elements will fetch.
   */
  thumbnail: boolean;
}

export async function resolveEmbed(c: RequestContext, target: EmbedTarget, { thumbnail }: ResolveOptions): Promise<Embeddable> {
  const site = c.site(target.site);
  if (target.kind === 'media') {
    const input = { site, mediaId: target.id };
    if (thumbnail) {
      const { presented: { body, personal } } = await resolveInput(media, c, input);
      return { title: body.title, personal, thumbnail: body.poster ?? body.thumbnail };
    }
    const { loaded, bound } = await loadInput(media, c, input);
    if (!isPublished(loaded!.value, Date.now())) throw notFound();
    // Refused as its answer is (a media naming another's files): the page would only show a player that cannot play.
    checkMediaFiles(loaded!.value, c.env.DELIVERY_BASE_URL);
    // Bound by a filtered playlist's rules, judged on the media now read, as its API answer is: not even its title.
    const ruled = await enforcePolicies(c, mediaPolicies(site, target.id, await membershipFor(c, site), loaded!.value));
    return { title: loaded!.value.title, personal: bound || ruled, thumbnail: null };
  }
  const input = { site, playlistId: target.id, page: 1, pageLength: 1, asked: NO_VARIANT };
  if (thumbnail) {
    // The shelf's first card as the caller would see it: published, and allowed by everything that binds it.
    const { presented: { body, personal } } = await resolveInput(feed, c, input);
    return { title: body.playlist.title, personal, thumbnail: body.items[0]?.thumbnail ?? null };
  }
  const { loaded, bound } = await loadInput(feed, c, input);
  return { title: loaded!.value.playlist.title, personal: bound, thumbnail: null };
}
