/**
 * One short line for a reply that is valid JSON of a shape the client cannot use (a tool call
 * without `index`, an event without a field it needs): which part, which field, what was wrong.
 * The client's own report is a schema dump (every branch of a union it tried); this picks the
 * branch the chunk was meant to be and names the field, e.g. `a tool call without "index"`.
 * Such a reply fails the same way every time, so the caller does not retry it. Pure.
 */

/** A schema issue as zod reports it (only the fields read here). */
type Issue = { code?: string; path?: PropertyKey[]; expected?: unknown; values?: unknown[]; errors?: Issue[][]; message?: string };

type Leaf = { path: PropertyKey[]; issue: Issue };

/**
 * What is wrong with `value`, from the validator's `issues`: `a tool call without "index"`,
 * `a "response.output_item.done" event whose "item.call_id" is a number, not a string`. Undefined
 * when the issues say nothing usable.
 */
export function describeUnreadableShape(value: unknown, issues: unknown): string | undefined {
  if (!Array.isArray(issues)) return undefined;
  const leaf = closestLeaf(value, issues as Issue[]);
  if (!leaf || leaf.path.length === 0) return undefined;
  const { part, field } = partOf(value, leaf.path);
  return `${part} ${problem(field, at(value, leaf.path), leaf.issue)}`;
}

/**
 * The part and field named by an SDK's InvalidResponseDataError message (`Expected 'function.name'
 * to be a string.`, `Expected 'function' type.`), as the same kind of phrase; undefined for others.
 */
export function describeInvalidResponseData(message: string): string | undefined {
  const field = /^Expected '([^']+)' to be an? (\w+)/.exec(message);
  if (field) return `a tool call without "${field[1]}"`;
  if (/^Expected 'function' type/.test(message)) return `a tool call whose "type" is not "function"`;
  return undefined;
}

/**
 * The issue of the branch the value was meant to match: in a union, branches whose discriminator
 * (`type`, `object`) does not match are dropped, then the branch that got deepest into the value
 * wins (fewest issues on a tie), and within it the deepest issue: the most specific field.
 */
function closestLeaf(value: unknown, issues: Issue[], prefix: PropertyKey[] = [], depth = 0): Leaf | undefined {
  if (depth > 8) return undefined;
  let best: { leaf: Leaf; score: number } | undefined;
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path ?? [])];
    let leaf: Leaf | undefined;
    if (issue.code === "invalid_union" && Array.isArray(issue.errors)) {
      const branches = issue.errors.filter((b) => Array.isArray(b) && b.length > 0 && !b.some((i) => isDiscriminatorMismatch(value, [...path, ...(i.path ?? [])], i)));
      const chosen = [...(branches.length > 0 ? branches : issue.errors)].sort((a, b) => deepest(b) - deepest(a) || a.length - b.length)[0];
      leaf = chosen ? closestLeaf(value, chosen, path, depth + 1) : undefined;
    } else leaf = { path, issue };
    if (!leaf) continue;
    const score = leaf.path.length;
    if (!best || score > best.score) best = { leaf, score };
  }
  return best?.leaf;
}

function deepest(branch: Issue[]): number {
  return Math.max(0, ...branch.map((i) => i.path?.length ?? 0));
}

/** A literal `type` / `object` the value does not have: the value is not meant for this branch. */
function isDiscriminatorMismatch(value: unknown, path: PropertyKey[], issue: Issue): boolean {
  const key = path.at(-1);
  return issue.code === "invalid_value" && (key === "type" || key === "object") && typeof at(value, path) === "string";
}

function at(value: unknown, path: PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (!current || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The part of the reply the path is in, in words, and the path to the field from that part. */
function partOf(value: unknown, path: PropertyKey[]): { part: string; field: string } {
  const keys = path.map(String);
  const numeric = (k: PropertyKey) => typeof k === "number" || /^\d+$/.test(String(k));
  // Parts a reader recognises, innermost first; the field is the path below the part.
  const parts: [string, string][] = [
    ["tool_calls", "a tool call"],
    ["function_call", "a tool call"],
    ["usage", "token usage"],
    ["delta", "a delta"],
    ["message", "a message"],
    ["choices", "a choice"],
    ["item", "an output item"],
    ["part", "a content part"],
    ["response", "a response"],
  ];
  for (let i = keys.length - 2; i >= 0; i--) {
    const named = parts.find(([key]) => key === keys[i]);
    if (!named) continue;
    const start = numeric(path[i + 1]!) ? i + 2 : i + 1;
    if (start >= keys.length) continue;
    let part = named[1];
    if (named[0] === "item") {
      const type = (at(value, path.slice(0, start)) as { type?: unknown } | undefined)?.type;
      if (typeof type === "string") part = type === "function_call" ? "a tool call" : `a "${type}" item`;
    }
    return { part, field: fieldName(path.slice(start)) };
  }
  const type = (value as { type?: unknown } | undefined)?.type;
  return { part: typeof type === "string" ? `a "${type}" event` : "a chunk", field: fieldName(path) };
}

function fieldName(path: PropertyKey[]): string {
  return path.map((k) => (typeof k === "number" ? `[${k}]` : String(k))).join(".").replace(/\.\[/g, "[");
}

/** `without "index"`, `whose "index" is "0", not a number`. */
function problem(field: string, received: unknown, issue: Issue): string {
  if (received === undefined) return `without "${field}"`;
  const got = received === null ? "null" : Array.isArray(received) ? "an array" : typeof received === "object" ? "an object" : JSON.stringify(received).slice(0, 40);
  if (issue.code === "invalid_type" && typeof issue.expected === "string") return `whose "${field}" is ${got}, not ${article(issue.expected)}`;
  if (Array.isArray(issue.values)) return `whose "${field}" is ${got}, not ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
  return `whose "${field}" is ${got}`;
}

function article(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`;
}
