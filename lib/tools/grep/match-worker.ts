/**
 * The built-in grep's matching, in a Worker that can be ended at a deadline: a JavaScript regular
 * expression cannot be interrupted from its own thread (Bun's engine gives up backtracking on one
 * line only after about 2 s, so `(a|a)*b` over a file of many lines of `a` runs for minutes). The worker reads each file itself (size cap, binary sniff), tests every line, and
 * sends back at most `room` matches, each line kept up to `keep` characters, file by file (so
 * what was found before the deadline is kept). The worker's source
 * is a string run from a Blob URL, so the compiled binary needs no extra file.
 */

export type WorkerJob = { files: string[]; pattern: string; ignoreCase: boolean; room: number; maxBytes: number; keep: number };
export type WorkerMatch = { file: string; line: number; text: string; cut?: boolean };
/** What a job found; `end` says whether it finished, or what ended it (the matches found until then are kept). */
export type WorkerAnswer = { matches: WorkerMatch[]; tooLarge: number; end: "done" | "timeout" | "aborted" };

const SOURCE = `
import { readFileSync, statSync } from "node:fs";
self.onmessage = (event) => {
  const job = event.data;
  const regex = new RegExp(job.pattern, job.ignoreCase ? "i" : "");
  const matches = [];
  let tooLarge = 0;
  const decoder = new TextDecoder();
  files: for (const file of job.files) {
    let bytes;
    try {
      if (statSync(file).size > job.maxBytes) { tooLarge++; continue; }
      bytes = readFileSync(file);
    } catch { continue; }
    if (bytes.subarray(0, 8192).includes(0)) continue;
    const text = decoder.decode(bytes);
    if (text === "") continue;
    const lines = text.split("\\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const found = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!regex.test(line)) continue;
      const clean = line.replace(/\\r$/, "");
      found.push(clean.length > job.keep ? { file, line: i + 1, text: clean.slice(0, job.keep), cut: true } : { file, line: i + 1, text: clean });
      if (matches.length + found.length >= job.room) break;
    }
    if (found.length > 0) postMessage({ matches: found });
    matches.push(...found);
    if (matches.length >= job.room) break files;
  }
  postMessage({ done: true, tooLarge });
};
`;

let url: string | undefined;
/** Workers that finished a job, kept for the next (starting one takes 20–50 ms). */
const idle: Worker[] = [];

function takeWorker(): Worker {
  const worker = idle.pop();
  if (worker) return worker;
  url ??= URL.createObjectURL(new Blob([SOURCE], { type: "application/javascript" }));
  return new Worker(url);
}

/**
 * Runs one job, ended "timeout" when it is not done within `timeLimitMs`, "aborted" when `signal`
 * aborts first. Either way the worker is then terminated, stopping the regular expression where it is.
 */
export function matchInWorker(job: WorkerJob, timeLimitMs: number, signal: AbortSignal): Promise<WorkerAnswer> {
  const matches: WorkerMatch[] = [];
  if (signal.aborted) return Promise.resolve({ matches, tooLarge: 0, end: "aborted" });
  const worker = takeWorker();
  worker.ref();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (end: WorkerAnswer["end"], tooLarge: number) => {
      const keep = end === "done";
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      worker.onmessage = null;
      worker.onerror = null;
      if (keep) {
        worker.unref(); // an idle worker must not keep shiro running
        idle.push(worker);
      } else worker.terminate();
      resolve({ matches, tooLarge, end });
    };
    const timer = setTimeout(() => finish("timeout", 0), timeLimitMs);
    const onAbort = () => finish("aborted", 0);
    signal.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<{ matches?: WorkerMatch[]; done?: boolean; tooLarge?: number }>) => {
      if (event.data.matches) matches.push(...event.data.matches);
      if (event.data.done) finish("done", event.data.tooLarge ?? 0);
    };
    // A worker that failed (it should not: the pattern compiled) ends the job with what it found, not a hang.
    worker.onerror = () => finish("aborted", 0);
    worker.postMessage(job);
  });
}
