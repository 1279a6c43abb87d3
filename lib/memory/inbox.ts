import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { ShiroError } from "../errors.ts";
import { writeStateFileSync } from "../fs/atomic-write.ts";
import { projectHash } from "../fs/project-root.ts";
import { withFileLock, type LockOptions } from "../fs/lock.ts";
import { readJsonFile } from "../fs/read-json.ts";
import { MemoryKind, type NoteDraft } from "./schema.ts";
import { noteKey } from "./text.ts";

/** One suggested note waiting for a person: what it says, when, and the session that suggested it. */
export const InboxItem = v.object({
  kind: MemoryKind,
  text: v.string(),
  suggestedAt: v.string(),
  session: v.optional(v.string()),
});
export type InboxItem = v.InferOutput<typeof InboxItem>;

/** `$SHIRO_HOME/memory/inbox/<hash>.json`: the suggestions of headless runs, oldest first. */
export const InboxFile = v.object({ version: v.literal(1), suggestions: v.array(InboxItem) });

/** Where a project's inbox is: beside its memory file, in `inbox/`. Pure. */
export function inboxPath(home: string, projectRoot: string): string {
  return join(home, "memory", "inbox", `${projectHash(projectRoot)}.json`);
}

export type Inbox = {
  readonly path: string;
  /** The waiting notes, oldest first. A file that cannot be read is moved aside (notice says where) and reads as empty. Creates nothing. */
  read(): Promise<{ items: InboxItem[]; notice?: string }>;
  /** Adds notes not already waiting (ignoring case and spacing); returns how many were added. */
  add(notes: readonly NoteDraft[], session?: string): Promise<{ added: number; notice?: string }>;
  /** Removes these items (as `read` gave them), leaving any added since. */
  remove(items: readonly InboxItem[]): Promise<{ notice?: string }>;
};

/**
 * A project's memory inbox, a file for the user: every change takes `<path>.lock`, reads the file
 * afresh and replaces it atomically, so two runs adding at once both keep their notes; a file
 * that is not valid JSON or not an inbox is moved to `<path>.corrupt-<time>`, never deleted.
 */
export function openInbox(opts: { home: string; projectRoot: string; now?: () => Date; lock?: LockOptions }): Inbox {
  const path = inboxPath(opts.home, opts.projectRoot);
  const now = opts.now ?? (() => new Date());
  const load = (): { items: InboxItem[]; notice?: string } => {
    const result = readJsonFile(path, InboxFile, { now });
    switch (result.status) {
      case "ok":
        return { items: result.value.suggestions };
      case "missing":
        return { items: [] };
      case "corrupt":
        if (!result.movedTo) throw new ShiroError("state", `the memory inbox at ${path} cannot be read (${result.reason}) and could not be moved aside. Move or repair it by hand.`);
        return { items: [], notice: `The memory inbox at ${path} could not be read (${result.reason}). It was moved to ${result.movedTo} and a fresh inbox started; nothing was deleted.` };
      default:
        return result satisfies never;
    }
  };
  /** `change` on the inbox as it is now, under the lock; written when it returns a list. */
  const locked = async <T>(change: (items: InboxItem[]) => { items?: InboxItem[]; result: T }): Promise<{ result: T; notice?: string }> => {
    mkdirSync(dirname(path), { recursive: true });
    return withFileLock(
      `${path}.lock`,
      () => {
        const loaded = load();
        const applied = change(loaded.items);
        if (applied.items) writeStateFileSync(path, JSON.stringify({ version: 1, suggestions: applied.items }, null, 2) + "\n");
        return loaded.notice ? { result: applied.result, notice: loaded.notice } : { result: applied.result };
      },
      opts.lock,
    );
  };
  return {
    path,
    async read() {
      if (!existsSync(path)) return { items: [] };
      const { result, notice } = await locked((items) => ({ result: items }));
      return notice ? { items: result, notice } : { items: result };
    },
    async add(notes, session) {
      const { result, notice } = await locked((items) => {
        const seen = new Set(items.map((item) => noteKey(item.text)));
        const at = now().toISOString();
        const fresh = notes.filter((note) => !seen.has(noteKey(note.text)) && seen.add(noteKey(note.text)));
        const added = fresh.map((note): InboxItem => ({ kind: note.kind, text: note.text, suggestedAt: at, ...(session ? { session } : {}) }));
        return added.length > 0 ? { items: [...items, ...added], result: added.length } : { result: 0 };
      });
      return notice ? { added: result, notice } : { added: result };
    },
    async remove(gone) {
      if (!existsSync(path)) return {};
      const same = (a: InboxItem, b: InboxItem) => a.text === b.text && a.kind === b.kind && a.suggestedAt === b.suggestedAt;
      const { notice } = await locked((items) => {
        const kept = items.filter((item) => !gone.some((g) => same(g, item)));
        return kept.length === items.length ? { result: undefined } : { items: kept, result: undefined };
      });
      return notice ? { notice } : {};
    },
  };
}
