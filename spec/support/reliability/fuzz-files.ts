/**
 * Corrupted and adversarial state files, generated from a seed. Each case starts from a file
 * shiro itself would write (a session record, a memory store, a config file, a prompt history)
 * and damages it one way: cut short, emptied, replaced by binary, given invalid UTF-8, a wrong
 * version, wrong types, a huge string, deep nesting, a non-object top level, a BOM, prototype
 * keys, lone surrogates, NUL bytes, duplicate keys, trailing garbage, or far too many entries.
 * Some damage leaves a file that still passes the schema: those must simply work.
 */
import type { ModelMessage } from "ai";
import { serializeMemory } from "../../../lib/memory/store.ts";
import type { MemoryEntry } from "../../../lib/memory/schema.ts";
import { newSessionRecord } from "../../../lib/sessions/record.ts";
import { serializeSession } from "../../../lib/sessions/serialize.ts";
import { pick } from "./support.ts";

export type Target = "session" | "memory" | "config" | "history";

export const KINDS = [
  "empty",
  "whitespace",
  "truncated",
  "binary",
  "invalid-utf8",
  "wrong-version",
  "wrong-type",
  "huge-string",
  "deep-nesting",
  "top-level",
  "bom",
  "proto-keys",
  "lone-surrogate",
  "nul-bytes",
  "duplicate-key",
  "trailing-garbage",
  "too-many",
] as const;
export type Kind = (typeof KINDS)[number];

export type FuzzCase = { target: Target; kind: Kind; bytes: Uint8Array; /** Session id (file name) for session cases. */ id?: string; detail: string };

export type FuzzContext = { cwd: string; projectRoot: string; /** Largest huge string, in bytes (reduced runs use less). */ hugeBytes: number };

const encoder = new TextEncoder();

function sampleMessages(): ModelMessage[] {
  return [
    { role: "user", content: "why does the pagination test fail?" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me read the code." },
        { type: "tool-call", toolCallId: "call_fuzz_1", toolName: "read_file", input: { path: "src/page.ts" } },
      ],
    },
    { role: "tool", content: [{ type: "tool-result", toolCallId: "call_fuzz_1", toolName: "read_file", output: { type: "text", value: "1\texport const page = 1;" } }] },
    { role: "assistant", content: [{ type: "text", text: "The boundary is off by one." }] },
  ];
}

/** The valid file shiro would write for this target, as a JS value and as its on-disk text. */
export function baseFile(target: Target, ctx: FuzzContext): { value: any; text: string; id?: string } {
  switch (target) {
    case "session": {
      const id = Bun.randomUUIDv7();
      const record = newSessionRecord({ id, now: new Date(), cwd: ctx.cwd, provider: "openai", model: "gpt-test", messages: sampleMessages(), todos: [{ content: "fix the boundary", status: "in_progress" }] });
      const text = serializeSession(record);
      return { value: JSON.parse(text), text, id };
    }
    case "memory": {
      const entries: MemoryEntry[] = [
        { id: "0193ab2c-7d41-7c3e-9f0a-2b8c1d4e5f60", kind: "command", text: "Tests run with `bun test`, not `npm test`.", createdAt: "2025-03-02T10:14:07.512Z", hits: 3, lastHitAt: "2025-03-09T16:40:21.003Z" },
        { id: "0193ab2c-7d41-7c3e-9f0a-2b8c1d4e5f61", kind: "gotcha", text: "The migration must run before the seed.", createdAt: "2025-03-02T10:15:07.512Z", hits: 0 },
      ];
      const text = serializeMemory(entries);
      return { value: JSON.parse(text), text };
    }
    case "config": {
      const value = { model: "gpt-test", maxRetries: 1, compactAtTokens: 50_000, permission: { bash: { "git status*": "allow" }, write_file: "ask" }, guard: { allow: ["git push --force-with-lease*"] } };
      return { value, text: JSON.stringify(value, null, 2) + "\n" };
    }
    case "history": {
      const value = { project: ctx.projectRoot, entries: ["first prompt", "second prompt"] };
      return { value, text: JSON.stringify(value, null, 1) + "\n" };
    }
    default:
      return target satisfies never;
  }
}

/** Every path to a value inside `value` (objects and arrays), the root excluded. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (value && typeof value === "object") {
    for (const [k, child] of Object.entries(value)) {
      const path = [...prefix, Array.isArray(value) ? Number(k) : k];
      out.push(path);
      paths(child, path, out);
    }
  }
  return out;
}

function setAt(root: any, path: (string | number)[], next: unknown): void {
  let node = root;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path.at(-1)!] = next;
}

function randomValue(rand: () => number): unknown {
  return pick(rand, [
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1.5,
    () => 1e308,
    () => -9007199254740993,
    () => "",
    () => "a string where something else belongs",
    () => [],
    () => [1, "two", null],
    () => ({}),
    () => ({ role: "nobody", content: 5 }),
    () => "2025-13-45T99:99:99Z",
  ])();
}

/** A placeholder swapped for a big raw JSON fragment after serialising (no deep recursion here). */
const SLOT = "\u0000__FUZZ_SLOT__\u0000";
const slotJson = JSON.stringify(SLOT);

function withSlot(rand: () => number, base: any, leavesOnly: boolean): { text: string; where: string } {
  const copy = structuredClone(base);
  const all = paths(copy).filter((p) => !leavesOnly || typeof p.reduce((n: any, k) => n?.[k], copy) !== "object");
  const path = all.length > 0 ? pick(rand, all) : [];
  if (path.length === 0) return { text: slotJson, where: "(root)" };
  setAt(copy, path, SLOT);
  return { text: JSON.stringify(copy), where: path.join(".") };
}

function randomBytes(rand: () => number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(rand() * 256);
  return bytes;
}

function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  const arrays = parts.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** One damaged file. Deterministic for a given `rand` state. */
export function makeCase(rand: () => number, target: Target, kind: Kind, ctx: FuzzContext): FuzzCase {
  const base = baseFile(target, ctx);
  const done = (bytes: Uint8Array | string, detail: string): FuzzCase => ({
    target,
    kind,
    bytes: typeof bytes === "string" ? encoder.encode(bytes) : bytes,
    ...(base.id ? { id: base.id } : {}),
    detail,
  });
  switch (kind) {
    case "empty":
      return done("", "0 bytes");
    case "whitespace":
      return done(pick(rand, [" ", "\n", "\n\n\t  \n", "\r\n"]), "whitespace only");
    case "truncated": {
      const bytes = encoder.encode(base.text);
      const cut = Math.floor(rand() * bytes.length);
      return done(bytes.slice(0, cut), `cut at byte ${cut} of ${bytes.length}`);
    }
    case "binary": {
      const length = 1 + Math.floor(rand() * 4096);
      return done(randomBytes(rand, length), `${length} random bytes`);
    }
    case "invalid-utf8": {
      const bytes = encoder.encode(base.text);
      // Inside a string value: after some opening quote.
      const quotes: number[] = [];
      bytes.forEach((b, i) => b === 0x22 && quotes.push(i));
      const at = (quotes.length ? pick(rand, quotes) : 0) + 1;
      const bad = pick(rand, [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xf0, 0x28, 0x8c, 0x28], [0xed, 0xa0, 0x80]]);
      return done(concat(bytes.slice(0, at), new Uint8Array(bad), bytes.slice(at)), `bytes ${bad.map((b) => b.toString(16)).join(" ")} at ${at}`);
    }
    case "wrong-version": {
      const copy = structuredClone(base.value);
      const version = pick(rand, [2, 0, -1, "1", null, 1.5, 99, [1]]);
      if (target === "session" || target === "memory") copy.version = version;
      else copy.version = version; // config and history have no version: an unknown field
      return done(JSON.stringify(copy), `version ${JSON.stringify(version)}`);
    }
    case "wrong-type": {
      const copy = structuredClone(base.value);
      const all = paths(copy);
      const path = pick(rand, all);
      const value = randomValue(rand);
      setAt(copy, path, value);
      return done(JSON.stringify(copy), `${path.join(".")} = ${JSON.stringify(value)}`);
    }
    case "huge-string": {
      const size = Math.floor(ctx.hugeBytes * (0.2 + 0.8 * rand()));
      const unit = pick(rand, ["x", "é", "😀", "a\\n", "\\u0000"]);
      const { text, where } = withSlot(rand, base.value, true);
      const repeated = unit.repeat(Math.max(1, Math.floor(size / encoder.encode(unit).length)));
      return done(text.replace(slotJson, `"${repeated}"`), `${where} = ${size} bytes of ${JSON.stringify(unit)}`);
    }
    case "deep-nesting": {
      const depth = pick(rand, [100, 1_000, 10_000, 100_000, 1_000_000]);
      const open = rand() < 0.5 ? "[" : '{"a":';
      const close = open === "[" ? "]" : "}";
      const { text, where } = withSlot(rand, base.value, false);
      return done(text.replace(slotJson, open.repeat(depth) + "1" + close.repeat(depth)), `${where} nested ${depth} deep`);
    }
    case "top-level": {
      const top = pick(rand, ["null", "[]", "42", '"a string"', "true", "[" + base.text + "]"]);
      return done(top, `top level ${top.slice(0, 20)}`);
    }
    case "bom":
      return done(concat(new Uint8Array([0xef, 0xbb, 0xbf]), base.text), "UTF-8 BOM before the JSON");
    case "proto-keys": {
      const key = pick(rand, ["__proto__", "constructor", "prototype"]);
      const text = base.text.replace("{", `{"${key}":{"polluted":true,"role":"user","version":1},`);
      return done(text, `"${key}" key at the top`);
    }
    case "lone-surrogate": {
      const { text, where } = withSlot(rand, base.value, true);
      return done(text.replace(slotJson, '"\\ud800 half a pair \\udfff"'), `${where} holds lone surrogates`);
    }
    case "nul-bytes": {
      const raw = rand() < 0.5;
      const { text, where } = withSlot(rand, base.value, true);
      return raw
        ? done(concat(...text.split(slotJson).flatMap((part, i) => (i === 0 ? [part] : ['"', new Uint8Array([0, 0, 0]), '"', part]))), `${where} holds raw NUL bytes`)
        : done(text.replace(slotJson, '"\\u0000\\u0000"'), `${where} holds escaped NULs`);
    }
    case "duplicate-key": {
      const keys = Object.keys(base.value);
      const key = pick(rand, keys);
      const value = randomValue(rand);
      const text = base.text.trimEnd().replace(/}$/, `,${JSON.stringify(key)}:${JSON.stringify(value)}}\n`);
      return done(text, `"${key}" repeated as ${JSON.stringify(value)}`);
    }
    case "trailing-garbage":
      return done(base.text + pick(rand, ["garbage", "}", "\u0000", '{"version":1}', ",", "\n\n]"]), "trailing bytes after the JSON");
    case "too-many": {
      const copy = structuredClone(base.value);
      const count = pick(rand, [301, 5_000, 50_000]);
      if (target === "session") copy.messages = Array.from({ length: count }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `message ${i}` }));
      else if (target === "memory") copy.entries = Array.from({ length: count }, (_, i) => ({ id: `id-${i}`, kind: "fact", text: `note ${i}`, createdAt: "2025-01-01T00:00:00.000Z", hits: i % 3 }));
      else if (target === "history") copy.entries = Array.from({ length: count }, (_, i) => `prompt ${i}`);
      else copy.permission = Object.fromEntries(Array.from({ length: count }, (_, i) => [`tool_${i}`, pick(rand, ["allow", "ask", "deny"])]));
      return done(JSON.stringify(copy), `${count} entries`);
    }
    default:
      return kind satisfies never;
  }
}
