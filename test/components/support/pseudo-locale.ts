/**
 * A pseudo-locale (`en-XA`, the tag set aside for it): every English message accented and 40 % longer, its
 * placeholders kept. A page gives it as its own words (`window.reelgate.messages`), so the elements render text as
 * long as a wordy language's, in letters no font shortcut covers, and a layout that only fits English shows.
 */
import { refusalEnglish } from '../../../components/reel-geo-gate/refusal-words.ts';
import { configEnglish } from '../../../components/reel-player-config/en.ts';
import { kitEnglish } from '../../../components/reel-player/kit/en.ts';
import { english } from '../../../components/shared/i18n/en.ts';
import type { Message, Messages } from '../../../components/shared/i18n/types.ts';

export const PSEUDO = 'en-XA';

const ACCENTED: Record<string, string> = {
  a: 'á', e: 'é', i: 'î', o: 'ö', u: 'ü', c: 'ç', n: 'ñ', s: 'š', y: 'ý', z: 'ž', A: 'Å', E: 'É', I: 'Î', O: 'Ö', U: 'Ü',
  C: 'Ç', N: 'Ñ', S: 'Š', T: 'Ŧ', g: 'ĝ', h: 'ĥ', l: 'ļ', r: 'ŕ', t: 'ţ', w: 'ŵ', d: 'ð',
};

/** One text accented (placeholders untouched) and padded with words to 140 % of its length. */
export function pseudo(text: string): string {
  const accented = text.split(/(\{\w+\})/).map((piece, i) => (i % 2 ? piece : [...piece].map((ch) => ACCENTED[ch] ?? ch)
    .join(''))).join('');
  const extra = Math.ceil(text.length * 0.4);
  const words = ['ŀöŕéɱ', 'îþšüɱ', 'ðöļöŕ', 'šîţ', 'áɱéţ'];
  let padding = '';
  for (let i = 0; padding.length < extra; i++) padding += ` ${words[i % words.length]}`;
  return `${accented}${padding.slice(0, Math.max(extra, 1))}`;
}

const pseudoMessage = (message: Message): Message => (typeof message === 'string' ? pseudo(message)
  : Object.fromEntries(Object.entries(message).map(([category, text]) => [category, pseudo(text)])) as Message);

/** Every message of every catalogue, pseudo-localised. */
export const pseudoMessages: Messages = Object.fromEntries(
  Object.entries({ ...english, ...kitEnglish, ...configEnglish, ...refusalEnglish })
    .map(([id, message]) => [id, pseudoMessage(message as Message)]),
) as Messages;

/** Gives the page the pseudo-locale's words; returns the function that takes them back. */
export function usePseudoLocale(): () => void {
  (window as { reelgate?: { messages?: Record<string, Messages> } }).reelgate = { messages: { [PSEUDO]: pseudoMessages } };
  return () => { delete (window as { reelgate?: unknown }).reelgate; };
}
