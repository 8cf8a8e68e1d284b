/**
 * The languages there are packs for (packs/<language>.ts; English is built in): its own module, so a server helper
 * can know them without the packs themselves.
 */
export const PACK_LANGUAGES = ['ar', 'de', 'es', 'fr', 'it', 'ja', 'ko', 'nl', 'pl', 'pt-BR', 'sv', 'tr', 'zh-CN'] as const;
export type PackLanguage = (typeof PACK_LANGUAGES)[number];
