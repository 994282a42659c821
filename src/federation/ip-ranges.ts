// Address ranges an outbound call must never reach: the host's own loopback, private networks,
// carrier-grade NAT, link-local (where cloud metadata services live), and the special-purpose
// blocks of RFC 6890. The URL parser has already turned decimal, octal and hex IPv4 spellings
// into dotted quads and compressed IPv6, so these functions only see canonical forms.

/** [first address as a 32-bit number, prefix length, what it is]. */
const IPV4_BLOCKED: readonly [number, number, string][] = [
  [ipv4Number([0, 0, 0, 0]), 8, "this network"],
  [ipv4Number([10, 0, 0, 0]), 8, "private"],
  [ipv4Number([100, 64, 0, 0]), 10, "carrier-grade NAT"],
  [ipv4Number([127, 0, 0, 0]), 8, "loopback"],
  [ipv4Number([169, 254, 0, 0]), 16, "link-local (cloud metadata)"],
  [ipv4Number([172, 16, 0, 0]), 12, "private"],
  [ipv4Number([192, 0, 0, 0]), 24, "IETF protocol assignments"],
  [ipv4Number([192, 0, 2, 0]), 24, "documentation"],
  [ipv4Number([192, 88, 99, 0]), 24, "6to4 relay"],
  [ipv4Number([192, 168, 0, 0]), 16, "private"],
  [ipv4Number([198, 18, 0, 0]), 15, "benchmarking"],
  [ipv4Number([198, 51, 100, 0]), 24, "documentation"],
  [ipv4Number([203, 0, 113, 0]), 24, "documentation"],
  [ipv4Number([224, 0, 0, 0]), 4, "multicast"],
  [ipv4Number([240, 0, 0, 0]), 4, "reserved and broadcast"],
];

function ipv4Number(octets: readonly number[]): number {
  return ((octets[0] ?? 0) * 2 ** 24 + (octets[1] ?? 0) * 2 ** 16 + (octets[2] ?? 0) * 2 ** 8 + (octets[3] ?? 0)) >>> 0;
}

function inBlock(address: number, start: number, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = (0xffffffff << (32 - prefix)) >>> 0;
  return (address & mask) >>> 0 === (start & mask) >>> 0;
}

/** The four octets of a dotted-quad IPv4 address, or null when `host` is not one. */
export function parseIpv4(host: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return null;
  const octets = match.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** Why an IPv4 address is refused, or null when it is a public address. */
export function blockedIpv4(octets: readonly number[]): string | null {
  const address = ipv4Number(octets);
  for (const [start, prefix, what] of IPV4_BLOCKED) if (inBlock(address, start, prefix)) return what;
  return null;
}

/** The eight 16-bit groups of an IPv6 address (brackets stripped), or null when it is not one. */
export function parseIpv6(text: string): number[] | null {
  let host = text;
  const zone = host.indexOf("%");
  if (zone >= 0) host = host.slice(0, zone);
  if (!/^[0-9a-f:.]+$/i.test(host) || host.length > 45) return null;
  const lastColon = host.lastIndexOf(":");
  if (host.includes(".", lastColon)) {
    // A dotted IPv4 tail (`::ffff:127.0.0.1`) is two groups written another way.
    const v4 = parseIpv4(host.slice(lastColon + 1));
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    host = `${host.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groupsOf(halves[0]);
  const rest = groupsOf(halves[1]);
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const explicit = head.length + rest.length;
  if (halves.length === 1 ? explicit !== 8 : explicit > 7) return null;
  const zeros = new Array<number>(8 - explicit).fill(0);
  return [...head.map((g) => Number.parseInt(g, 16)), ...zeros, ...rest.map((g) => Number.parseInt(g, 16))];
}

function embeddedIpv4(groups: readonly number[], at: number): number[] {
  const high = groups[at] ?? 0;
  const low = groups[at + 1] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

/**
 * Why an IPv6 address is refused, or null when it is a public address. Addresses that carry an
 * IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that address too.
 */
export function blockedIpv6(groups: readonly number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const prefixZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (prefixZero && g5 === 0 && g6 === 0 && g7 <= 1) return g7 === 1 ? "loopback" : "unspecified";
  if (prefixZero && (g5 === 0xffff || g5 === 0)) {
    return blockedIpv4(embeddedIpv4(groups, 6)) ?? (g5 === 0 ? "IPv4-compatible" : null);
  }
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return "IPv4-translated";
  if (g0 === 0x64 && g1 === 0xff9b) return blockedIpv4(embeddedIpv4(groups, 6)) ?? null;
  if (g0 === 0x2002) return blockedIpv4(embeddedIpv4(groups, 1)) ?? null;
  if ((g0 & 0xfe00) === 0xfc00) return "unique local (private)";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "site-local";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "discard";
  if (g0 === 0x2001 && g1 === 0xdb8) return "documentation";
  if (g0 === 0x2001 && g1 < 0x200) return "IETF special purpose (Teredo, ORCHID)";
  return null;
}
