/**
 * Why a location is refused, in English: loaded with the refusal (refusal.ts) and added to the elements' catalogue
 * when it loads. Every language pack translates them too. A reason is named by its code (`reason`); one that names
 * the visitor's country has a `_here` twin, said when the country is not known.
 */
export const refusalEnglish = {
  allowed: 'Available where you are.',
  country_denied: 'Not available in {country}.',
  country_denied_here: 'Not available in your country.',
  country_not_allowed: 'Only available in some countries, and {country} is not one of them.',
  country_not_allowed_here: 'Only available in some countries.',
  continent_denied: 'Not available in your part of the world ({country}).',
  continent_denied_here: 'Not available in your part of the world.',
  continent_not_allowed: 'Only available in some parts of the world, not in {country}.',
  continent_not_allowed_here: 'Only available in some parts of the world.',
  proxy_denied: 'Not available through a VPN, proxy or anonymising network. Turn it off and reload the page.',
  location_unknown: 'We could not tell where you are, and this content is only shown where we can.',
};
