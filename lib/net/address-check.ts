/**
 * Which IP addresses web_fetch may connect to. Pure: the caller resolves the host name and
 * hands every address here; one refused address refuses the host (a name that resolves to a
 * public and a private address could be steered to the private one). Works on the address as
 * parsed, never on how it was written, so `0x7f.1`, `::ffff:127.0.0.1` and `::ffff:7f00:1` are
 * all loopback.
 */

type Range4 = { base: number; bits: number; why: string };

const v4 = (text: string, bits: number, why: string): Range4 => ({ base: parseIPv4(text)!, bits, why });

/** IPv4 blocks that are not the public internet. */
const PRIVATE_V4: readonly Range4[] = [
  v4("0.0.0.0", 8, "\"this network\" (0.0.0.0/8)"),
  v4("10.0.0.0", 8, "a private network (10/8)"),
  v4("100.64.0.0", 10, "carrier-grade NAT (100.64/10)"),
  v4("127.0.0.0", 8, "this machine (loopback)"),
  v4("169.254.0.0", 16, "link-local (169.254/16, where cloud metadata lives)"),
  v4("172.16.0.0", 12, "a private network (172.16/12)"),
  v4("192.0.0.0", 24, "IETF protocol assignments (192.0.0/24)"),
  v4("192.0.2.0", 24, "documentation (192.0.2/24)"),
  v4("192.88.99.0", 24, "6to4 relay anycast (192.88.99/24)"),
  v4("192.168.0.0", 16, "a private network (192.168/16)"),
  v4("198.18.0.0", 15, "benchmarking (198.18/15)"),
  v4("198.51.100.0", 24, "documentation (198.51.100/24)"),
  v4("203.0.113.0", 24, "documentation (203.0.113/24)"),
  v4("224.0.0.0", 4, "multicast (224/4)"),
  v4("240.0.0.0", 4, "reserved (240/4, including broadcast)"),
];

/**
 * Why `address` must not be fetched from, or undefined when it is a public address. An address
 * that cannot be parsed is refused too.
 */
export function refusedAddress(address: string): string | undefined {
  const text = address.trim().replace(/^\[|\]$/g, "");
  const four = parseIPv4(text);
  if (four !== undefined) return refusedV4(four);
  const six = parseIPv6(text);
  if (six === undefined) return `not an IP address (${address})`;
  return refusedV6(six);
}

function refusedV4(ip: number): string | undefined {
  for (const range of PRIVATE_V4) {
    const mask = range.bits === 0 ? 0 : (0xffffffff << (32 - range.bits)) >>> 0;
    if (((ip & mask) >>> 0) === ((range.base & mask) >>> 0)) return range.why;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address. */
type Groups = readonly number[];

function refusedV6(g: Groups): string | undefined {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = () => ((g[6]! << 16) | g[7]!) >>> 0;
  if (zeroUpTo(8)) return "the unspecified address (::)";
  if (zeroUpTo(7) && g[7] === 1) return "this machine (loopback ::1)";
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the old compatible form) carry an IPv4 address.
  if (zeroUpTo(5) && g[5] === 0xffff) return inV4("an IPv4-mapped address", embedded());
  if (zeroUpTo(6)) return inV4("an IPv4-compatible address", embedded());
  // ::ffff:0:a.b.c.d (SIIT) and 64:ff9b::/96 (NAT64) translate to an IPv4 address.
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return inV4("an IPv4-translated address", embedded());
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return inV4("a NAT64 address", embedded());
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "local-use NAT64 (64:ff9b:1::/48)";
  // 2002::/16 (6to4) carries the IPv4 address in groups 1 and 2.
  if (g[0] === 0x2002) return inV4("a 6to4 address", ((g[1]! << 16) | g[2]!) >>> 0);
  if ((g[0]! & 0xfe00) === 0xfc00) return "a unique-local IPv6 network (fc00::/7)";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local IPv6 (fe80::/10)";
  if ((g[0]! & 0xffc0) === 0xfec0) return "site-local IPv6 (fec0::/10)";
  if ((g[0]! & 0xff00) === 0xff00) return "IPv6 multicast (ff00::/8)";
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "IPv6 documentation (2001:db8::/32)";
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return "IPv6 discard (100::/64)";
  if (g[0] === 0x2001 && g[1]! < 0x0200) return "IETF protocol assignments (2001::/23)";
  return undefined;
}

function inV4(form: string, ip: number): string | undefined {
  const why = refusedV4(ip);
  return why ? `${form} of ${why}` : undefined;
}

/**
 * An IPv4 address as a 32-bit number, in the forms the resolver and URL parsers accept:
 * dotted quad, and the older short and hex/octal forms (`127.1`, `0x7f000001`). Undefined otherwise.
 */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === "")) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = parseInt(part, 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) n = Number(part);
    else return undefined;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255)) return undefined;
  if (last >= 2 ** (8 * (4 - numbers.length))) return undefined;
  let value = 0;
  numbers.forEach((n, i) => (value += n * 2 ** (8 * (3 - i))));
  return (value + last) >>> 0;
}

/** An IPv6 address (a zone such as `%eth0` ignored) as its eight groups; undefined when it is not one. */
export function parseIPv6(text: string): Groups | undefined {
  const address = text.replace(/%.*$/, "").toLowerCase();
  if (!/^[0-9a-f:.]+$/.test(address) || !address.includes(":")) return undefined;
  let tail: number[] = [];
  let head = address;
  const lastColon = address.lastIndexOf(":");
  if (address.slice(lastColon + 1).includes(".")) {
    const quad = address.slice(lastColon + 1);
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(quad)) return undefined;
    const ip = parseIPv4(quad);
    if (ip === undefined) return undefined;
    tail = [ip >>> 16, ip & 0xffff];
    head = address.slice(0, lastColon + 1);
    if (!head.endsWith("::")) head = head.slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groupsOf(halves[0]!);
  const right = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if ([...left, ...right].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  const known = left.length + right.length + tail.length;
  if (halves.length === 1 && known !== 8) return undefined;
  if (halves.length === 2 && known > 7) return undefined;
  const zeros = halves.length === 2 ? Array(8 - known).fill(0) : [];
  return [...left.map((g) => parseInt(g, 16)), ...zeros, ...right.map((g) => parseInt(g, 16)), ...tail];
}

/** `host` or `host:port` entries of config `webFetch.allowHosts`, matched against a URL. Pure. */
export function hostAllowed(url: URL, allowHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowHosts.some((entry) => {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim().toLowerCase());
    if (!m) return false;
    const allowedHost = m[1]!.replace(/^\[|\]$/g, "");
    return allowedHost === host && (m[2] === undefined || m[2] === port);
  });
}
