import { afterEach, expect, test } from "bun:test";
import type { ModelMessage } from "ai";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { continueSession, findSession } from "../../lib/sessions/find.ts";
import { openLiveSession } from "../../lib/sessions/live-session.ts";
import { lockPath, sessionPath, undoDir } from "../../lib/sessions/paths.ts";
import { hexDigits, lastingPrefix, shortestUniquePrefix } from "../../lib/sessions/prefix.ts";
import { listSessionIds, saveSession } from "../../lib/sessions/store.ts";
import { tempDir } from "../support/cli.ts";
import { makeRecord } from "./support/fixtures.ts";

const children: Bun.Subprocess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

const answer = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });

test("a new session: a prompt and two steps appended, saved on close with the spec's fields", () => {
  const home = tempDir();
  const live = openLiveSession({ home, cwd: "/work/app", provider: "openai", model: "gpt-5", todos: () => [{ content: "a", status: "pending" }] });
  expect(existsSync(lockPath(home, live.id))).toBe(true);
  live.append([{ role: "user", content: "why does the pagination test fail?" }]);
  live.append([answer("looking")], { inputTokens: 1000, outputTokens: 100 });
  live.append([answer("found it")], { inputTokens: 2000, outputTokens: 200 });
  live.close();
  live.close(); // idempotent

  const saved = JSON.parse(readFileSync(sessionPath(home, live.id), "utf8"));
  expect(saved).toMatchObject({
    version: 1,
    id: live.id,
    cwd: "/work/app",
    provider: "openai",
    model: "gpt-5",
    title: "why does the pagination test fail?",
    inputTokens: 3000,
    outputTokens: 300,
    notebook: { todos: [{ content: "a", status: "pending" }] },
  });
  expect(saved.costUsd).toBeCloseTo((3000 * 1.25 + 300 * 10) / 1e6, 12);
  expect(saved.messages).toHaveLength(3);
  expect(existsSync(lockPath(home, live.id))).toBe(false);
  expect(live.exitMessage()).toBe(
    `Good bye.\nSaved 3 messages: "why does the pagination test fail?"\n\nResume it with:\n  shiro -c                    newest session in this directory\n  shiro -r ${lastingPrefix(live.id, listSessionIds(home)).padEnd(19)}this session by id\n`,
  );
});

test("resuming continues the same file, adds to the totals, and keeps the task list when none is given", () => {
  const home = tempDir();
  const first = openLiveSession({ home, cwd: "/work/app", provider: "openai", model: "gpt-5" });
  first.append([{ role: "user", content: "hi" }], { inputTokens: 100, outputTokens: 10 });
  first.close();

  const record = { ...continueSession(home, "/work/app"), notebook: { todos: [{ content: "kept", status: "in_progress" }] } };
  saveSession(home, record);
  const again = openLiveSession({ home, cwd: "/work/app", provider: "openai", model: "gpt-5-mini", resume: findSession(home, first.id) });
  expect(again.id).toBe(first.id);
  expect(again.forkedFrom).toBeUndefined();
  expect(again.history).toHaveLength(1);
  again.append([{ role: "user", content: "more" }], { inputTokens: 1000, outputTokens: 100 });
  again.close();
  const saved = findSession(home, first.id);
  expect(saved).toMatchObject({ inputTokens: 1100, outputTokens: 110, model: "gpt-5-mini", title: "hi", notebook: { todos: [{ content: "kept", status: "in_progress" }] } });
  // Each turn priced with the model it ran on.
  expect(saved.costUsd).toBeCloseTo((100 * 1.25 + 10 * 10) / 1e6 + (1000 * 0.25 + 100 * 2) / 1e6, 12);
});

test("resuming and leaving without a word does not rewrite the file", () => {
  const home = tempDir();
  const record = makeRecord();
  saveSession(home, record);
  const before = readFileSync(sessionPath(home, record.id), "utf8");
  const live = openLiveSession({ home, cwd: record.cwd, provider: "openai", model: "gpt-5", resume: record });
  live.close();
  expect(readFileSync(sessionPath(home, record.id), "utf8")).toBe(before);
  expect(live.exitMessage()).toContain(`Saved 4 messages`);
});

test("a session held by another live shiro is forked: new id, same history and todos, forkedFrom; both files kept", async () => {
  const home = tempDir();
  const original = { ...makeRecord({ messageCount: 6 }), notebook: { todos: [{ content: "t", status: "pending" }] } };
  saveSession(home, original);
  // Its undo journal, as a turn left it.
  const journal = join(undoDir(home, original.id), "journal.json");
  mkdirSync(join(undoDir(home, original.id), "blobs"), { recursive: true });
  writeFileSync(journal, '{"version":1,"seq":1,"entries":[],"base":{},"truncated":false}');
  writeFileSync(join(undoDir(home, original.id), "blobs", "a".repeat(64)), "kept content");
  const holder = Bun.spawn([process.execPath, join(import.meta.dir, "support", "hold-lock.ts"), home, original.id], { stdout: "pipe" });
  children.push(holder);
  const reader = holder.stdout.getReader();
  await reader.read();
  reader.releaseLock();

  const live = openLiveSession({ home, cwd: original.cwd, provider: "openai", model: "gpt-5", resume: original });
  expect(live.id).not.toBe(original.id);
  expect(live.forkedFrom).toEqual({ id: original.id, holderPid: holder.pid });
  expect(live.notice).toContain(`is open in another shiro (pid ${holder.pid})`);
  expect(live.notice).toContain("Both are kept.");
  live.append([{ role: "user", content: "continue" }], { inputTokens: 10, outputTokens: 1 });
  live.close();

  const fork = findSession(home, live.id);
  expect(fork.forkedFrom).toBe(original.id);
  expect(fork.messages).toHaveLength(7);
  expect(fork.notebook.todos).toEqual([{ content: "t", status: "pending" }]);
  expect(findSession(home, original.id).messages).toHaveLength(6); // untouched
  // The copy carries the journal (so /undo and /rewind work in it); the original keeps its own.
  expect(readFileSync(join(undoDir(home, live.id), "journal.json"), "utf8")).toBe(readFileSync(journal, "utf8"));
  expect(readFileSync(join(undoDir(home, live.id), "blobs", "a".repeat(64)), "utf8")).toBe("kept content");
  expect(existsSync(journal)).toBe(true);
});

test("a fork is written on close even if nothing new was said, so the exit message points at a real file", async () => {
  const home = tempDir();
  const original = makeRecord();
  saveSession(home, original);
  const holder = Bun.spawn([process.execPath, join(import.meta.dir, "support", "hold-lock.ts"), home, original.id], { stdout: "pipe" });
  children.push(holder);
  const reader = holder.stdout.getReader();
  await reader.read();
  reader.releaseLock();
  const live = openLiveSession({ home, cwd: original.cwd, provider: "openai", model: "gpt-5", resume: original });
  live.close();
  expect(findSession(home, live.id).forkedFrom).toBe(original.id);
});

test("spend: unpriced stays unpriced; the ceiling warns once from 80% and refuses at 100%", () => {
  const home = tempDir();
  const local = openLiveSession({ home, cwd: "/p", provider: "ollama", model: "llama3.1:8b" });
  local.append([{ role: "user", content: "hi" }], { inputTokens: 1_000_000, outputTokens: 0 });
  expect(local.totals().costUsd).toBeUndefined();
  expect(local.checkSpend(0.01)).toBe("ok");
  local.close();
  expect("costUsd" in JSON.parse(readFileSync(sessionPath(home, local.id), "utf8"))).toBe(false);

  const live = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5" });
  live.append([{ role: "user", content: "hi" }]);
  expect(live.totals().costUsd).toBe(0);
  live.append([answer("a")], { inputTokens: 0, outputTokens: 85_000 }); // $0.85
  expect(live.checkSpend(1)).toBe("warn");
  expect(live.checkSpend(1)).toBe("ok"); // once
  live.append([answer("b")], { inputTokens: 0, outputTokens: 15_000 }); // $1.00
  expect(live.checkSpend(1)).toBe("over");
  live.close();
});

test("a replaced history (the end-of-turn repair, /compact) is written on close", () => {
  const home = tempDir();
  const live = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5" });
  live.append([{ role: "user", content: "hi" }, answer("a"), answer("b")]);
  live.save();
  live.replace([{ role: "user", content: "summary" }]);
  live.close();
  expect(findSession(home, live.id).messages).toEqual([{ role: "user", content: "summary" }]);
});

test("a conversation taken back to nothing (every turn undone) is written empty: a resume brings none of it back", () => {
  const home = tempDir();
  const live = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5" });
  live.append([{ role: "user", content: "hi" }, answer("a")]);
  live.save();
  expect(findSession(home, live.id).messages).toHaveLength(2);
  live.replace([]);
  live.close();
  expect(findSession(home, live.id).messages).toEqual([]);
  expect(live.exitMessage()).toContain("No messages were saved");
});

test("-c passes over a session taken back to nothing, to the newest one that holds a message; -r still opens it", () => {
  const home = tempDir();
  const older = makeRecord({ at: Date.now() - 60_000, cwd: "/work/app" });
  const emptied = { ...makeRecord({ at: Date.now(), cwd: "/work/app", messageCount: 0 }), title: "undone" };
  saveSession(home, older);
  saveSession(home, emptied);
  expect(continueSession(home, "/work/app", { withMessages: true }).id).toBe(older.id);
  expect(continueSession(home, "/work/app").id).toBe(emptied.id); // shiro undo and the like: the newest, whatever it holds
  expect(findSession(home, emptied.id).messages).toEqual([]);
});

test("a step that called a workspace-changing tool is written at once, off the step; a read-only step waits for the timer", async () => {
  const home = tempDir();
  const timers = { setTimeout: () => 1, clearTimeout: () => {} }; // the debounce never fires by itself
  const live = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5", timers, changesWorkspace: (tool) => tool === "bash" });
  const call = (toolName: string): ModelMessage => ({ role: "assistant", content: [{ type: "tool-call", toolCallId: toolName, toolName, input: {} }] });
  live.append([{ role: "user", content: "hi" }, call("read_file")]);
  expect(existsSync(sessionPath(home, live.id))).toBe(false);
  live.append([call("bash")]);
  // Not waited for by the step (the thread pool writes it), yet there without any timer firing.
  for (let waited = 0; !existsSync(sessionPath(home, live.id)) && waited < 2_000; waited += 5) await Bun.sleep(5);
  expect(findSession(home, live.id).messages).toHaveLength(3);
  live.append([call("read_file")]);
  live.append([call("bash")]);
  live.append([call("bash")]);
  // Writes one at a time, the last step included once the one in flight lands.
  for (let waited = 0; findSession(home, live.id).messages.length < 6 && waited < 2_000; waited += 5) await Bun.sleep(5);
  expect(findSession(home, live.id).messages).toHaveLength(6);
  live.close();
});

test("a save that lands while a step's background write is renaming is not undone by it", async () => {
  const home = tempDir();
  const timers = { setTimeout: () => 1, clearTimeout: () => {} };
  const call = (toolName: string): ModelMessage => ({ role: "assistant", content: [{ type: "tool-call", toolCallId: toolName, toolName, input: {} }] });
  let live!: ReturnType<typeof openLiveSession>;
  let raced = false;
  live = openLiveSession({
    home,
    cwd: "/p",
    provider: "openai",
    model: "gpt-5",
    timers,
    changesWorkspace: (tool) => tool === "bash",
    // Past the write's staleness check, before its rename: the worst moment for a newer save.
    writeInBackground: (record, options, write) =>
      write(record, {
        durable: options.durable,
        commit: () => {
          const ok = options.commit();
          if (ok && !raced) {
            raced = true;
            live.append([call("read_file")]);
            live.save();
          }
          return ok;
        },
      }),
  });
  live.append([{ role: "user", content: "hi" }, call("bash")]);
  await live.settled();
  expect(raced).toBe(true);
  expect(findSession(home, live.id).messages).toHaveLength(3);
  live.close();
});

test("close while a step's write is in flight keeps the session held until it lands, and the file has the last word", async () => {
  const home = tempDir();
  const timers = { setTimeout: () => 1, clearTimeout: () => {} };
  const call = (toolName: string): ModelMessage => ({ role: "assistant", content: [{ type: "tool-call", toolCallId: toolName, toolName, input: {} }] });
  const live = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5", timers, changesWorkspace: (tool) => tool === "bash" });
  live.append([{ role: "user", content: "hi" }, call("bash")]);
  await new Promise((next) => setImmediate(next)); // the step's write starts on the next turn of the event loop
  live.append([{ role: "assistant", content: "done" }]);
  live.close();
  expect(existsSync(lockPath(home, live.id))).toBe(true);
  await live.settled();
  expect(existsSync(lockPath(home, live.id))).toBe(false);
  expect(findSession(home, live.id).messages).toHaveLength(3);
});

test("usage booked outside a turn counts in the totals and the cost", () => {
  const home = tempDir();
  const live = openLiveSession({ home, cwd: "/p", provider: "openai", model: "gpt-5" });
  live.append([{ role: "user", content: "hi" }], { inputTokens: 100, outputTokens: 10 });
  live.book({ inputTokens: 1000, outputTokens: 100 });
  expect(live.totals()).toMatchObject({ inputTokens: 1100, outputTokens: 110 });
  expect(live.totals().costUsd).toBeCloseTo((1100 * 1.25 + 110 * 10) / 1e6, 12);
  live.close();
});

test("session ids are UUIDv7s: they begin with the creation time, so later sessions sort later", async () => {
  const home = tempDir();
  const before = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const live = openLiveSession({ home, cwd: "/work/app", provider: "openai", model: "gpt-5" });
    ids.push(live.id);
    live.close();
    await Bun.sleep(2);
  }
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect([...ids].sort()).toEqual(ids);
  const createdAt = parseInt(hexDigits(ids[0]!).slice(0, 12), 16);
  expect(createdAt).toBeGreaterThanOrEqual(before);
  expect(createdAt).toBeLessThanOrEqual(Date.now());
});

test("a subagent's transcript is kept beside the history, its tokens booked at its own model, and it survives a resume", () => {
  const home = tempDir();
  const live = openLiveSession({ home, cwd: "/work/app", provider: "openai", model: "gpt-5-mini" });
  live.append([{ role: "user", content: "find it" }]);
  live.append([answer("asking a subagent")], { inputTokens: 1000, outputTokens: 0 });
  const messages: ModelMessage[] = [{ role: "user", content: "Search." }, answer("found at a.ts:1")];
  live.recordSubagent({ callId: "call_1", index: 0, kind: "explore", description: "search", model: "gpt-5-nano", status: "success", steps: 1, inputTokens: 1_000_000, outputTokens: 0, messages });
  expect(live.history).toHaveLength(2); // not in the history
  expect(live.totals().inputTokens).toBe(1_001_000);
  expect(live.subagentTotals()).toEqual({ inputTokens: 1_000_000, outputTokens: 0, costUsd: 0.05, count: 1 });
  live.close();

  const record = findSession(home, live.id);
  expect(record.subagents).toEqual([expect.objectContaining({ callId: "call_1", model: "gpt-5-nano", costUsd: 0.05, messages })]);
  const again = openLiveSession({ home, cwd: "/work/app", provider: "openai", model: "gpt-5-mini", resume: record });
  expect(again.subagentTotals().count).toBe(1);
  expect(again.snapshot().subagents).toHaveLength(1);
  again.close();
});
