import type { ModelMessage } from "ai";
import { copyFileSync } from "node:fs";
import { loadSettings, shiroHome } from "../lib/config/load.ts";
import type { Flags } from "../lib/config/resolve.ts";
import { ShiroError } from "../lib/errors.ts";
import { createNotebook } from "../lib/notebook/notebook.ts";
import { compactTranscript } from "../lib/prune/compact-summary.ts";
import { repairHistory } from "../lib/prune/repair.ts";
import { validateHistory } from "../lib/prune/validate.ts";
import { continueSession, findSession } from "../lib/sessions/find.ts";
import { acquireSession } from "../lib/sessions/ownership.ts";
import { sessionPath } from "../lib/sessions/paths.ts";
import type { SessionRecord } from "../lib/sessions/schema.ts";
import { saveSession } from "../lib/sessions/store.ts";
import { openUndoJournal } from "../lib/sessions/undo/journal.ts";
import { toolsFor } from "../lib/tools/index.ts";

type Env = Record<string, string | undefined>;

/**
 * Runs `change` on a session only while no other shiro has it open: two processes never write
 * the same file.
 */
async function withSessionHeld<T>(home: string, record: SessionRecord, change: () => T | Promise<T>): Promise<T> {
  const held = acquireSession(home, record.id);
  if (!held.ok) throw new ShiroError("usage", `session ${record.id} is open in another shiro (pid ${held.holderPid}). Close it there first.`);
  try {
    return await change();
  } finally {
    held.release();
  }
}

/**
 * `shiro sessions compact <id>`: the model summarises the transcript (goal, files touched,
 * decisions, commands and outcomes, what remains) and the summary replaces it. The task list is
 * kept. A failed or unusable summary leaves the session exactly as it was.
 */
export async function compactSessionCommand(idOrPrefix: string, flags: Flags, env: Env): Promise<number> {
  const home = shiroHome(env);
  const record = findSession(home, idOrPrefix);
  const messages = record.messages as ModelMessage[];
  if (messages.length === 0) throw new ShiroError("usage", `session ${record.id} has no messages to compact.`);
  const { settings } = await loadSettings(flags, env);
  const { createModel } = await import("../lib/provider/model.ts");
  const { generate } = await import("../lib/agent/generate.ts");
  const { callOptions } = await import("../lib/provider/call-options.ts");
  const model = await createModel(settings);
  // Held for the whole exchange, so no other shiro changes the session while the model summarises it.
  return withSessionHeld(home, record, async () => {
    const current = findSession(home, record.id); // re-read under the lock: the latest version
    const messages = current.messages as ModelMessage[];
    const outcome = await compactTranscript(messages, (request) => generate({ model, settings, callOptions: callOptions(settings) }, request, { onRetry: (notice) => process.stderr.write(`shiro: ${notice}\n`) }), { tools: toolsFor({ notebook: createNotebook() }) });
    if (outcome.type === "failed") throw new ShiroError("provider", `the summary request failed, so the session was left as it was: ${outcome.message}`);
    if (outcome.type === "unusable") throw new ShiroError("provider", "the model's summary was empty or unusable, so the session was left as it was.");
    const replacement = outcome.messages;
    saveSession(home, { ...current, messages: replacement, updatedAt: new Date().toISOString() });
    openUndoJournal(home, record.id).markCompact(); // undo stops here, as after /compact
    process.stdout.write(`Compacted session ${record.id}: ${messages.length} messages replaced by a summary.\n`);
    return 0;
  });
}

/**
 * `shiro sessions repair <id> [--write]` and `shiro doctor [--write]`: checks a saved session
 * against the history invariants the providers enforce, reports each problem, and with --write
 * fixes them atomically after keeping a backup. Exit 0 when healthy or fixed, 1 when problems remain.
 */
export async function repairSessionCommand(idOrPrefix: string | undefined, opts: { write: boolean; cwd: string }, env: Env): Promise<number> {
  const home = shiroHome(env);
  const record = idOrPrefix === undefined ? continueSession(home, opts.cwd) : findSession(home, idOrPrefix);
  const messages = record.messages as ModelMessage[];
  // A saved history keeps item references of models that need no reasoning item; those are valid.
  const problems = validateHistory(messages, { allowPendingCalls: true }).filter((p) => p.code !== "reference-without-reasoning");
  const path = sessionPath(home, record.id);
  if (problems.length === 0) {
    process.stdout.write(`Session ${record.id} is healthy: ${messages.length} messages, no broken tool calls or references.\n`);
    return 0;
  }
  process.stdout.write(`Session ${record.id} (${path}) has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n`);
  for (const p of problems) process.stdout.write(`  message ${p.index}: ${p.message}\n`);
  if (!opts.write) {
    process.stdout.write(`Nothing was changed. Run again with --write to fix it (a backup is kept).\n`);
    return 1;
  }
  await withSessionHeld(home, record, () => {
    const backup = `${path}.bak-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    copyFileSync(path, backup);
    saveSession(home, { ...record, messages: repairHistory(messages), updatedAt: new Date().toISOString() });
    process.stdout.write(`Fixed. The previous file is kept at ${backup}\n`);
  });
  return 0;
}
