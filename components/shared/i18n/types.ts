/** The catalogue's types: what a message is, and the ids there are (every English catalogue's). */
import type { refusalEnglish } from '../../reel-geo-gate/refusal-words.ts';
import type { configEnglish } from '../../reel-player-config/en.ts';
import type { kitEnglish } from '../../reel-player/kit/en.ts';
import type { english } from './en.ts';

export type MessageId = keyof typeof english | keyof typeof kitEnglish | keyof typeof configEnglish
  | keyof typeof refusalEnglish;
/** Forms by plural category (`Intl.PluralRules`), chosen by the message's `{count}`. */
export type PluralForms = { [category in Intl.LDMLPluralRule]?: string } & { other: string };
export type Message = string | PluralForms;
/** Some of the messages, by id: what a page or an element overrides. */
export type Messages = { [id in MessageId]?: Message };
/** Every message: a language pack. */
export type Pack = { [id in MessageId]: Message };
export type Values = Record<string, unknown>;
