import type * as v from "valibot";
import { closeNames } from "../text/close-matches.ts";

/**
 * Reading a config schema by path, for messages about the file: the fields an object at some
 * path may hold (what an unknown field is compared with), and a path written so it can be found
 * in the file (`projects."/work/app".permision`). Pure.
 */

type Node = {
  kind?: string;
  type?: string;
  entries?: Record<string, Node>;
  wrapped?: Node;
  value?: Node;
  item?: Node;
  options?: Node[];
  pipe?: Node[];
  getter?: (input: unknown) => Node;
};

/** The schemas a node stands for: itself, what it wraps (optional, nullable), its union's options, the schemas in its pipe. */
function expand(node: Node, input: unknown, depth = 0): Node[] {
  if (depth > 20) return [];
  const out: Node[] = [node];
  if (node.wrapped) out.push(...expand(node.wrapped, input, depth + 1));
  for (const option of node.options ?? []) out.push(...expand(option, input, depth + 1));
  for (const step of node.pipe?.slice(1) ?? []) if (step.kind === "schema") out.push(...expand(step, input, depth + 1));
  if (node.type === "lazy" && node.getter) out.push(...expand(node.getter(input), input, depth + 1));
  return out;
}

/** What a node's value at `key` is checked by. */
function child(node: Node, key: string | number): Node[] {
  if (node.entries) return node.entries[key] ? [node.entries[key]] : [];
  if (node.type === "record" && node.value) return [node.value];
  if (node.type === "array" && node.item) return [node.item];
  return [];
}

/**
 * The field names an object at `path` may hold under `schema`, following the value (`inputs[i]`
 * is the value at `path[0..i)`, for the schemas chosen by what they read). Empty when the path
 * leads to no object with named fields.
 */
export function fieldNamesAt(schema: v.GenericSchema, path: readonly { key: unknown; value: unknown }[]): string[] {
  let nodes: Node[] = expand(schema as unknown as Node, undefined);
  for (const step of path) {
    const key = step.key as string | number;
    nodes = nodes.flatMap((node) => child(node, key)).flatMap((node) => expand(node, step.value));
  }
  return [...new Set(nodes.flatMap((node) => Object.keys(node.entries ?? {})))];
}

/** A key as written in a path: bare when it is a plain word, else in JSON quotes. */
function segment(key: unknown): string {
  const text = String(key);
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(text) ? text : JSON.stringify(text);
}

/**
 * A field's path for a message: `"models.m.contextWindow"` in quotes when every key is a plain
 * word, else with each odd key quoted and no outer quotes (`projects."/x".permision`).
 */
export function fieldPathText(keys: readonly unknown[]): string {
  const parts = keys.map(segment);
  const plain = parts.every((part, i) => part === String(keys[i]));
  return plain ? `"${parts.join(".")}"` : parts.join(".");
}

/**
 * The path of the first list in `value` that stands where the schema wants an object, or
 * undefined. valibot's object and record schemas take a list as an object with no fields, so
 * `"webFetch": []` would otherwise load as if the section were empty.
 */
export function listWhereObject(schema: v.GenericSchema, value: unknown): unknown[] | undefined {
  return walk(expand(schema as unknown as Node, value), value, [], 0);
}

function walk(nodes: Node[], value: unknown, path: unknown[], depth: number): unknown[] | undefined {
  if (typeof value !== "object" || value === null || depth > 32 || nodes.length === 0) return undefined;
  if (Array.isArray(value)) {
    const wantsObject = nodes.some((node) => node.entries || node.type === "record");
    // A custom check (permission-schema.ts plainObject) refuses a list with its own words.
    if (wantsObject && !nodes.some((node) => node.type === "array" || node.type === "tuple" || node.type === "custom")) return path;
  }
  for (const [key, inner] of Object.entries(value)) {
    const innerKey: string | number = Array.isArray(value) ? Number(key) : key;
    const found = walk(
      nodes.flatMap((node) => child(node, innerKey)).flatMap((node) => expand(node, inner)),
      inner,
      [...path, innerKey],
      depth + 1,
    );
    if (found) return found;
  }
  return undefined;
}

/**
 * What is wrong with a file read by `schema`, by its first problem: the field's path and its
 * rule, or for an unknown field (a typo) the fields it most looks like at that place, as `shiro
 * config set` does. Shared by the config file and a project's `.mcp.json`.
 */
export function issueWords(schema: v.GenericSchema, issue: v.BaseIssue<unknown>): string {
  const steps = issue.path ?? [];
  const keys = steps.map((step) => step.key);
  if (keys.length === 0) return issue.message;
  if (issue.type === "strict_object" && issue.expected === "never") {
    const close = closeNames(String(keys.at(-1)), fieldNamesAt(schema, steps.slice(0, -1)));
    return `unknown field ${fieldPathText(keys)}${close.length > 0 ? `. Did you mean ${close.join(", ")}?` : ""}`;
  }
  // valibot's own words for a value of the wrong kind where the schema has none of its own.
  const message = issue.expected === "Object" && issue.message.startsWith("Invalid type") ? `must be an object (got ${issue.received})` : issue.message;
  return `field ${fieldPathText(keys)} ${message}`;
}
