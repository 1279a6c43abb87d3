import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { writeStateFileSync } from "../../fs/atomic-write.ts";
import { readConfined } from "../../fs/confined-ops.ts";
import { OutsideError } from "../../fs/confined.ts";
import { readJsonFile } from "../../fs/read-json.ts";
import type { FileJournal } from "../../tools/define.ts";
import { undoDir } from "../paths.ts";
import { openBlobStore, removeJournalDir } from "./blobs.ts";

/** Turns /undo can walk back through. */
export const MAX_UNDO_TURNS = 20;
/** What the kept file contents of one session may take on disk; the oldest turns go first past it. */
export const MAX_UNDO_BYTES = 64 * 1024 * 1024;
/** A file bigger than this is not kept (its turn says so, and /undo cannot restore it). */
export const MAX_KEPT_FILE_BYTES = 8 * 1024 * 1024;

const FileState = v.variant("kind", [
  v.object({ kind: v.literal("absent") }),
  /** `blob`: the SHA-256 of the content, the name of its file under blobs/. */
  v.object({ kind: v.literal("file"), blob: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)), mode: v.number(), size: v.number() }),
  /** Too large to keep: only what tells a later change apart. */
  v.object({ kind: v.literal("unkept"), size: v.number(), mtimeMs: v.number() }),
]);
export type FileState = v.InferOutput<typeof FileState>;

const TurnFile = v.object({
  /** Absolute, as the tool named it. */
  path: v.string(),
  before: FileState,
  /** The state the turn left; absent when the turn never ended (the process died in it). */
  after: v.optional(FileState),
  /** The top-most folder that did not exist before the turn created the file: removed again, if empty, when the file is. */
  createdDir: v.optional(v.string()),
});
export type TurnFile = v.InferOutput<typeof TurnFile>;

const TurnEntry = v.object({
  type: v.literal("turn"),
  seq: v.number(),
  at: v.string(),
  /** The prompt that started the turn, put back into the input by /undo. */
  prompt: v.string(),
  /** The workspace root the turn's tools worked in: every look at and restore of its files stays under it (lib/fs/confined.ts). Absent in journals of older versions. */
  root: v.optional(v.string()),
  /** Messages in the history before the prompt: the conversation goes back to this length. */
  historyLength: v.number(),
  /** The task list before the turn (validated by whoever restores it). */
  todos: v.array(v.unknown()),
  /** The session's goal before the turn, null for none (validated by whoever restores it); absent in journals that did not keep it. */
  goal: v.optional(v.unknown()),
  files: v.array(TurnFile),
  /** Commands the turn ran (bash): counted because /undo cannot revert what they did. */
  commands: v.number(),
  ended: v.boolean(),
  filesUndone: v.boolean(),
  conversationUndone: v.boolean(),
});
export type TurnEntry = v.InferOutput<typeof TurnEntry>;

const CompactMark = v.object({ type: v.literal("compact"), seq: v.number(), at: v.string() });
export type UndoEntry = TurnEntry | v.InferOutput<typeof CompactMark>;

const Manifest = v.object({
  version: v.literal(1),
  seq: v.number(),
  entries: v.array(v.variant("type", [TurnEntry, CompactMark])),
  /** Each file's state before the session first changed it: what /diff session compares with. */
  base: v.record(v.string(), FileState),
  /** Older turns were let go (the turn count or the size bound): the walk back ends before the session's start. */
  truncated: v.boolean(),
  /** The workspace root of the newest turn: where base paths are looked at. */
  root: v.optional(v.string()),
});
type Manifest = v.InferOutput<typeof Manifest>;

/** What a turn changed, for the line at its end. `unkept`: changed files too large to restore. */
export type TurnChanges = { files: number; unkept: number; commands: number };

/** One turn being recorded: the journal its tools get, and its end. */
export type TurnRecorder = FileJournal & {
  /**
   * Writes the turn's start, durably, unless it is written already; before() and end() do it
   * first. Call it before anything the turn runs can change a file (a command included), and not
   * before the first request is on its way: it waits for the disk. Throws when it cannot be
   * written, and then the turn is left out of the journal.
   */
  ready(): void;
  /** Reads what the turn left and stores it; drops files it left as they were. */
  end(outcome: { commands: number }): Promise<TurnChanges>;
};

export type UndoJournal = {
  readonly dir: string;
  /** Newest last. */
  entries(): readonly UndoEntry[];
  base(): Readonly<Record<string, FileState>>;
  truncated(): boolean;
  /** Why the journal on disk could not be read, when it could not (it was set aside, and this one started empty). */
  damaged(): string | undefined;
  /** Starts recording a turn. Nothing is written until the recorder's ready() (or its first before()), so that a turn cut short by a crash after it can still be undone. */
  beginTurn(turn: { prompt: string; historyLength: number; todos: readonly unknown[]; goal?: unknown }): TurnRecorder;
  /** `/compact` replaced the history: the walk back stops here, and the turns before it are let go. */
  markCompact(): void;
  /** One half of a turn was undone; a turn with both halves undone is let go. */
  markUndone(seq: number, half: "files" | "conversation"): void;
  /** The kept content behind a `file` state. Throws when it is gone. */
  blob(state: Extract<FileState, { kind: "file" }>): Uint8Array;
  /** The state at `path` now, compared the way the journal compares (content hash and mode). Stores nothing. */
  stateNow(path: string): FileState;
  /** The workspace root `path` was changed under: every read and write of it stays inside (lib/fs/confined.ts). */
  rootOf(path: string): string;
};

/**
 * The session's undo journal, `$SHIRO_HOME/sessions/<id>.undo/`: `journal.json` (the turns, newest
 * last, and each touched file's state before the session first changed it) and `blobs/<sha256>`
 * (file contents, stored once however many turns share them). Bounded: MAX_UNDO_TURNS turns,
 * MAX_UNDO_BYTES of contents (the oldest turns go first), no file over MAX_KEPT_FILE_BYTES.
 * Removed with the session (store.ts). Only the process holding the session (ownership.ts) may
 * open it for writing. A journal that cannot be read starts empty rather than failing the session.
 */
export function openUndoJournal(home: string, sessionId: string, opts: { now?: () => Date; root?: string } = {}): UndoJournal {
  const dir = undoDir(home, sessionId);
  const manifestPath = join(dir, "journal.json");
  const blobs = openBlobStore(dir);
  const now = opts.now ?? (() => new Date());
  const loaded = load(manifestPath);
  let manifest: Manifest = loaded.manifest;

  const save = () => writeStateFileSync(manifestPath, JSON.stringify(manifest), { mode: 0o600 });

  /**
   * The root a path was changed under: its newest turn's, else the journal's, else this process's.
   * A journal of an older version names none: the file's own folder is the bound then.
   */
  function rootOf(path: string): string {
    for (let i = manifest.entries.length - 1; i >= 0; i--) {
      const entry = manifest.entries[i]!;
      if (entry.type === "turn" && entry.root !== undefined && entry.files.some((file) => file.path === path)) return entry.root;
    }
    return manifest.root ?? opts.root ?? dirname(path);
  }

  /** The state of `path`, its content stored (or only hashed, with `store` false); read through its workspace root. */
  function capture(path: string, store: boolean, root = rootOf(path)): FileState {
    const found = readConfined({ root }, path, { maxBytes: MAX_KEPT_FILE_BYTES });
    if (found.kind === "missing") return { kind: "absent" };
    if (!found.bytes) return { kind: "unkept", size: found.size, mtimeMs: Math.floor(found.mtimeMs) };
    const bytes = found.bytes;
    const blob = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
    if (store) blobs.put(blob, bytes);
    return { kind: "file", blob, mode: found.mode, size: bytes.length };
  }

  /** Lets go of fully undone turns, then the oldest past the bounds (in memory: commit() writes it). */
  function bound() {
    manifest.entries = manifest.entries.filter((e) => e.type === "compact" || !(e.filesUndone && e.conversationUndone));
    const turns = () => manifest.entries.filter((e): e is TurnEntry => e.type === "turn");
    const dropOldest = () => {
      const oldest = turns()[0];
      if (!oldest) return false;
      manifest.entries = manifest.entries.filter((e) => e !== oldest);
      manifest.truncated = true;
      return true;
    };
    while (turns().length > MAX_UNDO_TURNS) dropOldest();
    while (keptBytes(manifest) > MAX_UNDO_BYTES && turns().length > 1) dropOldest();
    if (keptBytes(manifest) > MAX_UNDO_BYTES) {
      // Past the bound with one turn left: /diff session loses its starting points first.
      const held = referencedBlobs(manifest, false);
      for (const [path, state] of Object.entries(manifest.base)) if (state.kind === "file" && !held.has(state.blob)) delete manifest.base[path];
    }
  }

  /**
   * Bounds the journal, writes it, and only then removes the contents nothing refers to: a crash
   * or a failed write never leaves a journal on disk that names a removed blob.
   */
  function commit() {
    bound();
    save();
    const referenced = referencedBlobs(manifest, true);
    blobs.sweep(referenced);
  }

  return {
    dir,
    entries: () => manifest.entries,
    base: () => manifest.base,
    truncated: () => manifest.truncated,
    damaged: () => loaded.damaged,
    beginTurn(turn) {
      const entry: TurnEntry = {
        type: "turn",
        seq: ++manifest.seq,
        at: now().toISOString(),
        prompt: turn.prompt,
        ...(opts.root !== undefined ? { root: opts.root } : {}),
        historyLength: turn.historyLength,
        todos: [...turn.todos],
        ...("goal" in turn ? { goal: turn.goal ?? null } : {}),
        files: [],
        commands: 0,
        ended: false,
        filesUndone: false,
        conversationUndone: false,
      };
      manifest.entries.push(entry);
      if (opts.root !== undefined) manifest.root = opts.root;
      let written = false;
      const ready = () => {
        if (written) return;
        const { entries, base, truncated } = manifest;
        try {
          manifest.base = { ...base }; // bound() may let starting points go
          commit();
        } catch (error) {
          // Not written: the journal stays as it was, without this turn.
          Object.assign(manifest, { entries: entries.filter((e) => e !== entry), base, truncated });
          throw error;
        }
        written = true;
      };
      // Tools of one step may run at once: their first looks at a file are taken one at a time.
      let chain: Promise<unknown> = Promise.resolve();
      const seen = new Set<string>();
      return {
        ready,
        before(path) {
          const next = chain.then(() => {
            ready();
            if (seen.has(path)) return;
            seen.add(path);
            const before = capture(path, true, opts.root);
            const createdDir = before.kind === "absent" ? topMissingDir(path) : undefined;
            entry.files.push({ path, before, ...(createdDir ? { createdDir } : {}) });
            if (!(path in manifest.base)) manifest.base[path] = before;
            save();
          });
          chain = next.catch(() => {});
          return next;
        },
        async end(outcome) {
          await chain;
          for (const file of entry.files) file.after = capture(file.path, true, entry.root);
          entry.files = entry.files.filter((file) => !sameState(file.before, file.after!));
          entry.commands = outcome.commands;
          entry.ended = true;
          commit();
          written = true;
          const unkept = entry.files.filter((f) => f.before.kind === "unkept").length;
          return { files: entry.files.length, unkept, commands: outcome.commands };
        },
      };
    },
    markCompact() {
      manifest.entries = [{ type: "compact", seq: ++manifest.seq, at: now().toISOString() }];
      commit();
    },
    markUndone(seq, half) {
      const entry = manifest.entries.find((e): e is TurnEntry => e.type === "turn" && e.seq === seq);
      if (!entry) return;
      if (half === "files") entry.filesUndone = true;
      else entry.conversationUndone = true;
      commit();
    },
    blob(state) {
      return blobs.get(state.blob);
    },
    stateNow(path) {
      try {
        return capture(path, false);
      } catch (error) {
        // Not reachable inside the workspace (a folder on the way now leads out): nothing is there, as far as undo may look.
        if (error instanceof OutsideError) return { kind: "absent" };
        throw error;
      }
    },
    rootOf,
  };
}

/** Two states are the same file: both absent, the same content and mode, or an unkept file of the same size and time. */
export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind === "absent" || b.kind === "absent") return a.kind === b.kind;
  if (a.kind === "file" && b.kind === "file") return a.blob === b.blob && a.mode === b.mode;
  if (a.kind === "unkept" && b.kind === "unkept") return a.size === b.size && a.mtimeMs === b.mtimeMs;
  return false;
}

/** Removes a session's journal: with the session file (store.ts removeSession). Never throws. */
export function removeUndoJournal(home: string, sessionId: string): void {
  removeJournalDir(undoDir(home, sessionId));
}

/** The journal on disk; one that cannot be read is set aside (kept, never overwritten) and an empty one starts, with why. */
function load(path: string): { manifest: Manifest; damaged?: string } {
  const read = readJsonFile(path, Manifest);
  if (read.status === "ok") return { manifest: read.value };
  const manifest: Manifest = { version: 1, seq: 0, entries: [], base: {}, truncated: false };
  if (read.status === "missing") return { manifest };
  const kept = read.movedTo ? `, so it was set aside as ${read.movedTo}` : "";
  return { manifest, damaged: `the record of the turns before could not be read (${path}: ${read.reason})${kept}, and they cannot be undone` };
}

/** Bytes of the contents the journal refers to, each blob counted once. */
function keptBytes(manifest: Manifest): number {
  const sizes = new Map<string, number>();
  const add = (state: FileState | undefined) => {
    if (state?.kind === "file") sizes.set(state.blob, state.size);
  };
  for (const entry of manifest.entries) {
    if (entry.type !== "turn") continue;
    for (const file of entry.files) {
      add(file.before);
      add(file.after);
    }
  }
  for (const state of Object.values(manifest.base)) add(state);
  let total = 0;
  for (const size of sizes.values()) total += size;
  return total;
}

function referencedBlobs(manifest: Manifest, withBase: boolean): Set<string> {
  const blobs = new Set<string>();
  const add = (state: FileState | undefined) => {
    if (state?.kind === "file") blobs.add(state.blob);
  };
  for (const entry of manifest.entries) {
    if (entry.type !== "turn") continue;
    for (const file of entry.files) {
      add(file.before);
      add(file.after);
    }
  }
  if (withBase) for (const state of Object.values(manifest.base)) add(state);
  return blobs;
}

/** The highest folder above `path` that does not exist yet, or undefined when its folder exists. */
function topMissingDir(path: string): string | undefined {
  let missing: string | undefined;
  for (let dir = dirname(path); dir !== dirname(dir) && !existsSync(dir); dir = dirname(dir)) missing = dir;
  return missing;
}

