/**
 * The continent of every ISO 3166-1 country (plus XK), for turning a policy's continent rules into the list of
 * countries structured data names (`regionsAllowed`). Taken from countries-list@3.4.1 (MIT); test/worker/render.test.ts
 * checks it against that package. A country that spans two continents has the one that package gives it (RU and TR
 * Asia, CY Europe); the Geo API may answer the other, so `regionsAllowed` is a description for search engines, never
 * what decides access (geo/policy.ts decides).
 */
const BY_CONTINENT: Readonly<Record<string, string>> = {
  AF: 'AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW MZ NA NE ' +
    'NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW',
  AN: 'AQ BV GS HM TF',
  AS: 'AE AF AM AZ BD BH BN BT CC CN CX GE HK ID IL IN IO IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO MV MY NP OM PH ' +
    'PK PS QA RU SA SG SY TH TJ TM TR TW UZ VN YE',
  EU: 'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT ' +
    'NL NO PL PT RO RS SE SI SJ SK SM UA VA XK',
  NA: 'AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI PA PM PR SV SX TC TT US ' +
    'VC VG VI',
  OC: 'AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TL TO TV UM VU WF WS',
  SA: 'AR BO BR CL CO EC FK GF GY PE PY SR UY VE',
};

export const CONTINENT_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(BY_CONTINENT).flatMap(([continent, codes]) => codes.split(' ').map((code) => [code, continent] as const)),
);
