import { lookup } from "node:dns/promises";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { ToolError } from "../errors.ts";
import { hostAllowed, refusedAddress } from "./address-check.ts";

/** How far web_fetch goes: the whole fetch (every hop) within `timeoutMs`, at most `maxBytes` of body. */
export type FetchLimits = {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** `host` or `host:port` reachable even on a private address (config `webFetch.allowHosts`). */
  allowHosts: readonly string[];
};

export type FetchedPage = {
  /** Where the page came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Uint8Array;
  /** The body went past maxBytes and was cut there. */
  cut: boolean;
};

/** Resolves a host name to every address it has; an IP literal is itself. */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `url`, following redirects one hop at a time. Before every hop the host is resolved and
 * every address it has is checked (lib/net/address-check.ts) unless the host is in allowHosts; the
 * connection then goes to the checked address (a `lookup` that answers with it, so TLS still
 * verifies the certificate for the host name), so a second DNS answer cannot swap it for another.
 * Throws ToolError with the reason for a refused address, a bad scheme, too many redirects, a
 * timeout or a network failure.
 */
export async function fetchPage(url: string, limits: FetchLimits, signal: AbortSignal, resolve: Resolver = systemResolver): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const both = AbortSignal.any([signal, deadline]);
  let current = parseUrl(url);
  try {
    for (let hop = 0; ; hop++) {
      const address = await checkedAddress(current, limits.allowHosts, (host) => untilAborted(resolve(host), both));
      const response = await request(current, address, both);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location) {
        response.destroy();
        if (hop >= limits.maxRedirects) throw new ToolError(`web_fetch: more than ${limits.maxRedirects} redirects (last to ${location}); fetch the final address directly.`);
        current = parseUrl(new URL(location, current).href, `redirect from ${current.href}`);
        continue;
      }
      const { body, cut } = await readBody(response, limits.maxBytes, both);
      return { url: current.href, status: response.statusCode ?? 0, contentType: String(response.headers["content-type"] ?? ""), body, cut };
    }
  } catch (error) {
    if (deadline.aborted && !signal.aborted) throw new ToolError(`web_fetch: ${current.href} took longer than ${limits.timeoutMs / 1000}s; try again later or another page.`);
    if (signal.aborted) throw new ToolError("web_fetch: interrupted");
    throw error;
  }
}

/** `promise`, or the signal's reason once it aborts (a resolver cannot be stopped, only left behind). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function parseUrl(text: string, via?: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(`web_fetch: ${text} is not a URL; pass a full http:// or https:// address.`);
  }
  const where = via ? ` (${via})` : "";
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ToolError(`web_fetch: only http and https URLs can be fetched, not ${url.protocol}${where}.`);
  if (url.username || url.password) throw new ToolError(`web_fetch: URLs with a user name or password are not fetched${where}.`);
  return url;
}

/** The address to connect to for `url`: resolved, and every address the name has checked. */
async function checkedAddress(url: URL, allowHosts: readonly string[], resolve: Resolver): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new ToolError(`web_fetch: could not resolve ${host} (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the address.`);
    }
  }
  if (addresses.length === 0) throw new ToolError(`web_fetch: ${host} has no address.`);
  if (!hostAllowed(url, allowHosts)) {
    for (const { address } of addresses) {
      const why = refusedAddress(address);
      if (why) {
        throw new ToolError(
          `web_fetch: refused ${url.host}: it resolves to ${address}, ${why}. Only public addresses are fetched; ` +
            `the user can allow this host with config "webFetch": { "allowHosts": ["${url.host}"] }.`,
        );
      }
    }
  }
  // Every address passed; IPv4 first, as many machines have no IPv6 route.
  return addresses.find((a) => a.family === 4) ?? addresses[0]!;
}

async function request(url: URL, pinned: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise((resolvePromise, reject) => {
    const req = client.request(
      url,
      {
        method: "GET",
        signal,
        headers: {
          "user-agent": "shiro (web_fetch; a terminal coding agent)",
          accept: "text/html, application/xhtml+xml, text/markdown, text/plain;q=0.9, */*;q=0.5",
          "accept-encoding": "gzip, deflate, br",
        },
        // The connection goes to the address that was checked, whatever the resolver says now.
        lookup: (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
          if (options?.all) callback(null, [pinned]);
          else callback(null, pinned.address, pinned.family);
        },
      } as never,
      resolvePromise,
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(signal.reason);
      else reject(new ToolError(`web_fetch: could not fetch ${url.href}: ${error.code ?? error.message}`));
    });
    req.end();
  });
}

/** The body, decompressed, up to `maxBytes` (then cut and the connection dropped). */
async function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ body: Uint8Array; cut: boolean }> {
  const encoding = String(response.headers["content-encoding"] ?? "").toLowerCase();
  const unpack =
    encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : encoding === "br" ? createBrotliDecompress() : undefined;
  if (unpack) {
    // pipe() does not pass the source's errors on: a connection that breaks ends the reading with its error.
    response.on("error", (error) => unpack.destroy(error));
    response.pipe(unpack);
  }
  const stream = unpack ?? response;
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  const onAbort = () => {
    response.destroy();
    unpack?.destroy();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal.aborted) throw signal.reason;
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) {
        cut = true;
        break;
      }
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ToolError(`web_fetch: the page could not be read to the end: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    signal.removeEventListener("abort", onAbort);
    response.destroy();
    unpack?.destroy();
  }
  if (signal.aborted && !cut) throw signal.reason;
  const body = Buffer.concat(chunks);
  return { body: cut ? body.subarray(0, maxBytes) : body, cut };
}
