/** Gate reasons in words a visitor understands, in the page's language for country names. */
import type { GateDecisionReason } from '../shared/events.ts';

function countryName(code: string | null, lang: string): string | null {
  if (!code) return null;
  try {
    return new Intl.DisplayNames(lang, { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

export function describeReason(reason: GateDecisionReason, country: string | null, lang: string): string {
  const where = countryName(country, lang);
  switch (reason) {
    case 'allowed':
      return 'Available where you are.';
    case 'country_denied':
      return where ? `Not available in ${where}.` : 'Not available in your country.';
    case 'country_not_allowed':
      return `Only available in some countries${where ? `, and ${where} is not one of them` : ''}.`;
    case 'continent_denied':
      return `Not available in your part of the world${where ? ` (${where})` : ''}.`;
    case 'continent_not_allowed':
      return `Only available in some parts of the world${where ? `, not in ${where}` : ''}.`;
    case 'proxy_denied':
      return 'Not available through a VPN, proxy or anonymising network. Turn it off and reload the page.';
    case 'location_unknown':
      return 'We could not tell where you are, and this content is only shown where we can.';
    case 'gate_unreachable':
      return 'We could not check where you are just now. Please try again later.';
    case 'gate_refused':
      return 'The availability rules for this content could not be checked.';
  }
}
