/**
 * IPv4 and IPv6 addresses, parsed for real: IPv4 strictly dotted-decimal (four parts, no leading zeros, no octal or
 * hex forms that other parsers accept and read differently), IPv6 per RFC 4291 §2.2 (compressed forms, an embedded
 * IPv4 tail) and written back canonically per RFC 5952. Zone ids (`fe80::1%eth0`) are refused: they mean nothing
 * beyond one host and must not reach a lookup or a cache key.
 */

export class InvalidIpAddressError extends Error {
  override name = 'InvalidIpAddressError';
  constructor(readonly input: string, reason = 'not an IPv4 or IPv6 address') {
    super(`Invalid IP address ${JSON.stringify(input.length > 64 ? `${input.slice(0, 64)}…` : input)}: ${reason}.`);
  }
}

export interface ParsedIpAddress {
  version: 4 | 6;
  /** Canonical text: dotted-decimal, or RFC 5952 lower-case compressed IPv6. */
  address: string;
}

const IPV4_PART = /^(0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const MAX_INPUT_LENGTH = 64;

function parseIpv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  const pieces = text.split(':');
  for (const [index, piece] of pieces.entries()) {
    if (index === pieces.length - 1 && piece.includes('.')) {
      const bytes = parseIpv4Bytes(piece);
      if (!bytes) return null;
      groups.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
    } else if (HEX_GROUP.test(piece)) {
      groups.push(parseInt(piece, 16));
    } else {
      return null;
    }
  }
  return groups;
}

/** The eight 16-bit groups of an IPv6 address, or null. */
function parseIpv6Groups(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  if (halves.length === 1) {
    const groups = parseGroups(text);
    return groups && groups.length === 8 ? groups : null;
  }
  const [head = '', tail = ''] = halves;
  // An IPv4 tail may only end the address, so it cannot sit before the `::`.
  if (head.includes('.')) return null;
  const left = parseGroups(head);
  const right = parseGroups(tail);
  if (!left || !right || left.length + right.length > 7) return null;
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function isIpv4Mapped(groups: readonly number[]): boolean {
  return groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
}

function formatIpv6(groups: readonly number[]): string {
  if (isIpv4Mapped(groups)) {
    // RFC 5952 §5: an IPv4-mapped address keeps its dotted tail.
    const [g6 = 0, g7 = 0] = groups.slice(6);
    return `::ffff:${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
  }
  // The longest run of two or more zero groups is compressed; the first one wins a tie (RFC 5952 §4.2).
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start += 1) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length += 1;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** The address in canonical form, or null when the input is not exactly one IPv4 or IPv6 address. */
export function parseIpAddress(input: string): ParsedIpAddress | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_INPUT_LENGTH) return null;
  if (input.includes(':')) {
    if (input.includes('%')) return null; // zone id
    const groups = parseIpv6Groups(input);
    return groups ? { version: 6, address: formatIpv6(groups) } : null;
  }
  const bytes = parseIpv4Bytes(input);
  return bytes ? { version: 4, address: bytes.join('.') } : null;
}

/** Like `parseIpAddress`, but throws `InvalidIpAddressError` with the reason. */
export function requireIpAddress(input: string): ParsedIpAddress {
  const parsed = parseIpAddress(input);
  if (parsed) return parsed;
  const text = typeof input === 'string' ? input : String(input);
  if (text.includes(':') && text.includes('%')) throw new InvalidIpAddressError(text, 'zone ids are not accepted');
  throw new InvalidIpAddressError(text);
}

// ------------------------------------------------------------------------------------------------ public or not

type Ipv4Range = readonly [network: readonly [number, number, number, number], prefix: number];

/**
 * IPv4 ranges that no geo lookup can place (RFC 6890 special-purpose registry, minus the documentation ranges, which
 * reelgate's sandbox and tests use as visitor addresses and so count as lookup-able).
 */
const NON_PUBLIC_IPV4: readonly Ipv4Range[] = [
  [[0, 0, 0, 0], 8], // "this network"
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // shared address space (carrier-grade NAT)
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, and the limited broadcast address
];

function toUint32(bytes: readonly number[]): number {
  return (((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!) >>> 0;
}

function inIpv4Range(bytes: readonly number[], [network, prefix]: Ipv4Range): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return ((toUint32(bytes) & mask) >>> 0) === ((toUint32(network) & mask) >>> 0);
}

function isPublicIpv4(bytes: readonly number[]): boolean {
  return !NON_PUBLIC_IPV4.some((range) => inIpv4Range(bytes, range));
}

function embeddedIpv4(groups: readonly number[]): number[] {
  const [g6 = 0, g7 = 0] = groups.slice(6);
  return [g6 >> 8, g6 & 255, g7 >> 8, g7 & 255];
}

/**
 * Whether a geo lookup can say anything about the address: false for private, loopback, link-local, unique-local,
 * multicast, reserved and unspecified addresses (and for anything that is not an address). Documentation ranges
 * (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32) count as public here, on purpose: the sandbox and the
 * tests use them as visitors. IPv4-mapped and NAT64 (64:ff9b::/96) addresses are judged by their IPv4 part.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseIpAddress(address);
  if (!parsed) return false;
  if (parsed.version === 4) return isPublicIpv4(parseIpv4Bytes(parsed.address)!);
  const groups = parseIpv6Groups(parsed.address)!;
  if (isIpv4Mapped(groups)) return isPublicIpv4(embeddedIpv4(groups));
  const isNat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (isNat64) return isPublicIpv4(embeddedIpv4(groups));
  // Global unicast is 2000::/3; everything else (::, ::1, fc00::/7, fe80::/10, ff00::/8, ...) is not.
  return (groups[0]! & 0xe000) === 0x2000;
}

/**
 * The network a visitor is counted as: an IPv4 address on its own; an IPv6 address as its /64, the smallest block an
 * ISP hands one subscriber (RFC 6177), so rotating through the 2^64 addresses of one line is still one visitor.
 * IPv4-mapped and NAT64 addresses count as the IPv4 address they carry. Null when the input is not an address.
 */
export function visitorNetwork(address: string): string | null {
  const parsed = parseIpAddress(address);
  if (!parsed) return null;
  if (parsed.version === 4) return parsed.address;
  const groups = parseIpv6Groups(parsed.address)!;
  const isNat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (isIpv4Mapped(groups) || isNat64) return embeddedIpv4(groups).join('.');
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
