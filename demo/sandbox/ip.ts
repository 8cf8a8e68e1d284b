// IPv4/IPv6 parsing for the geo route: to refuse what is not an address, and to tell private, loopback and
// link-local addresses (which no lookup can place) from public ones.

export type ParsedIp = { version: 4; bytes: number[] } | { version: 6; bytes: number[] };

export function parseIp(input: string): ParsedIp | null {
  return parseIpv4(input) ?? parseIpv6(input);
}

/** Dotted quad; leading zeros are refused (they read as octal in some stacks). */
function parseIpv4(input: string): ParsedIp | null {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(input)) return null;
  const parts = input.split('.');
  if (parts.some((part) => Number(part) > 255 || (part.length > 1 && part.startsWith('0')))) return null;
  return { version: 4, bytes: parts.map(Number) };
}

function parseIpv6(input: string): ParsedIp | null {
  if (!/^[0-9a-fA-F:.]+$/.test(input) || input.length > 45) return null;
  const halves = input.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string): string[] | null => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  const words: number[] = [];
  const toWords = (list: string[], isLast: boolean): number[] | null => {
    const out: number[] = [];
    for (let i = 0; i < list.length; i++) {
      const group = list[i]!;
      if (isLast && i === list.length - 1 && group.includes('.')) {
        const v4 = parseIpv4(group);
        if (!v4) return null;
        out.push((v4.bytes[0]! << 8) | v4.bytes[1]!, (v4.bytes[2]! << 8) | v4.bytes[3]!);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
      out.push(parseInt(group, 16));
    }
    return out;
  };
  const headWords = toWords(head, halves.length === 1);
  const tailWords = toWords(tail, true);
  if (!headWords || !tailWords) return null;
  if (halves.length === 1) {
    if (headWords.length !== 8) return null;
    words.push(...headWords);
  } else {
    const missing = 8 - headWords.length - tailWords.length;
    if (missing < 1) return null;
    words.push(...headWords, ...new Array<number>(missing).fill(0), ...tailWords);
  }
  return { version: 6, bytes: words.flatMap((word) => [word >> 8, word & 0xff]) };
}

/** Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, longest zero run as ::). */
export function formatIp(ip: ParsedIp): string {
  if (ip.version === 4) return ip.bytes.join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((ip.bytes[i]! << 8) | ip.bytes[i + 1]!);
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength && j - i > 1) { bestStart = i; bestLength = j - i; }
    i = j;
  }
  const hex = words.map((word) => word.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function inPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

const V4_NON_PUBLIC: Array<[number[], number]> = [
  [[0, 0, 0, 0], 8], [[10, 0, 0, 0], 8], [[100, 64, 0, 0], 10], [[127, 0, 0, 0], 8], [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12], [[192, 168, 0, 0], 16], [[224, 0, 0, 0], 4], [[240, 0, 0, 0], 4],
];
const V6_NON_PUBLIC: Array<[number[], number]> = [
  [new Array<number>(16).fill(0), 127],   // :: and ::1
  [[0xfc], 7],                             // unique local
  [[0xfe, 0x80], 10],                      // link-local
  [[0xff], 8],                             // multicast
];

/** Private, loopback, link-local, CGNAT, multicast or unspecified: no location can be known. */
export function isNonPublic(ip: ParsedIp): boolean {
  if (ip.version === 4) return V4_NON_PUBLIC.some(([prefix, bits]) => inPrefix(ip.bytes, prefix, bits));
  const mapped = ip.bytes.slice(0, 10).every((byte) => byte === 0) && ip.bytes[10] === 0xff && ip.bytes[11] === 0xff;
  if (mapped) return isNonPublic({ version: 4, bytes: ip.bytes.slice(12) });
  return V6_NON_PUBLIC.some(([prefix, bits]) => inPrefix(ip.bytes, prefix, bits));
}
