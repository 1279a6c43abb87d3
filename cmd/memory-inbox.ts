import { ShiroError } from "../lib/errors.ts";
import { sanitize } from "../lib/render.ts";
import { createMemoryStore, openInbox, rememberNote, type InboxItem } from "../lib/memory/index.ts";

type Where = { home: string; projectRoot: string; json: boolean };

/**
 * `shiro memory inbox`, `accept <n>…` and `reject <n>…`: the notes headless runs suggested
 * (config `memorySuggestions: "inbox"`), kept by a person or dropped. Numbers are those the inbox
 * lists now, 1 first. An accepted note is written by `remember`'s rules: one already recorded
 * leaves the inbox as done; one the store refuses (it is full) stays. Returns the exit code.
 */
export async function runInboxCommand(sub: "inbox" | "accept" | "reject", words: readonly string[], where: Where): Promise<number> {
  const inbox = openInbox(where);
  const { items, notice } = await inbox.read();
  if (notice) process.stderr.write(`shiro: ${notice}\n`);
  if (sub === "inbox") {
    if (where.json) process.stdout.write(JSON.stringify({ path: inbox.path, count: items.length, suggestions: items }) + "\n");
    else process.stdout.write(listing(items) + "\n");
    return 0;
  }
  const chosen = numbers(words, items.length, sub);
  if (sub === "reject") {
    await inbox.remove(chosen.map((n) => items[n - 1]!));
    process.stdout.write(chosen.map((n) => `rejected ${n}: (${items[n - 1]!.kind}) ${items[n - 1]!.text}`).join("\n") + "\n");
    return 0;
  }
  const store = createMemoryStore({ ...where, onNotice: (message) => process.stderr.write(`shiro: ${message}\n`) });
  const done: InboxItem[] = [];
  let refused = 0;
  for (const n of chosen) {
    const item = items[n - 1]!;
    const result = await rememberNote(store, { kind: item.kind, text: item.text });
    if (result.ok || result.problem === "duplicate") done.push(item);
    else refused++;
    process.stdout.write(result.ok ? `accepted ${n}: (${item.kind}) ${sanitize(item.text)}\n` : `not kept ${n}: ${result.message}\n`);
  }
  await inbox.remove(done);
  return refused > 0 ? 1 : 0;
}

/** The inbox for a person: numbered, oldest first, with how to keep or drop each. */
function listing(items: readonly InboxItem[]): string {
  if (items.length === 0) return "No suggested notes are waiting. Headless runs put them here with config \"memorySuggestions\": \"inbox\".";
  const width = String(items.length).length;
  return [
    `${items.length === 1 ? "1 suggested note" : `${items.length} suggested notes`} waiting for project memory:`,
    ...items.map((item, i) => `${String(i + 1).padStart(width)}  (${item.kind}) ${sanitize(item.text)}`), // a file may hold what an older shiro kept raw
    "shiro memory accept <n>… keeps them, shiro memory reject <n>… drops them.",
  ].join("\n");
}

/** The numbers given, each checked against the inbox; throws a usage error saying which numbers there are. */
function numbers(words: readonly string[], count: number, sub: string): number[] {
  if (count === 0) throw new ShiroError("usage", "no suggested notes are waiting: shiro memory inbox lists them when there are.");
  if (words.length === 0) throw new ShiroError("usage", `shiro memory ${sub} needs the number of a note, from 1 to ${count}, as shiro memory inbox lists them.`);
  const chosen: number[] = [];
  for (const word of words) {
    const n = /^\d+$/.test(word) ? Number(word) : NaN;
    if (!(n >= 1 && n <= count)) throw new ShiroError("usage", `"${word}" is not a note's number: the inbox has ${count === 1 ? "note 1" : `notes 1 to ${count}`} (shiro memory inbox lists them).`);
    if (!chosen.includes(n)) chosen.push(n);
  }
  return chosen;
}
