import { MATCHED_FIELD, type HookEvent } from "./events.ts";
import { matcherMatches } from "./matcher.ts";
import { combineVerdicts, NO_OUTCOME, type HookOutcome } from "./outcome.ts";
import { runHookCommand } from "./run-command.ts";
import type { HookCommand, HookTable } from "./table.ts";
import { readVerdict, type HookVerdict } from "./verdict.ts";

/** What every hook's input says about where it runs. Functions: the session id and mode can change. */
export type HookContext = {
  sessionId: () => string;
  /** The session file (one JSON document, not JSON Lines). */
  transcriptPath: () => string;
  cwd: string;
  /** shiro's mode in Claude Code's words (events.ts claudePermissionMode). */
  permissionMode: () => string;
  /** The hooks' environment: the user's, without the API key, with SHIRO_PROJECT_DIR and CLAUDE_PROJECT_DIR. */
  env: Record<string, string>;
  /** Set inside a subagent. */
  agent?: { id: string; type: string };
};

export type FireOptions = {
  /** The names a tool event's matcher is compared with (its Claude Code name and shiro's). */
  names?: readonly string[];
  /** Ends the running hooks (their process groups) when it aborts. */
  signal?: AbortSignal;
  /** Told of each hook's run as it ends. */
  onRun?: (record: HookRunRecord) => void;
};

/** One hook's run, for the loop's line, `--json`'s `hook` event and /hooks. */
export type HookRunRecord = {
  event: HookEvent;
  /** The tool, for tool events, as hooks saw it. */
  tool?: string;
  command: string;
  origin: string;
  exitCode: number | null;
  /** What it decided, when it decided something: block, allow, deny, ask, stop, error. */
  decision?: string;
  reason?: string;
  durationMs: number;
};

/**
 * The configured hooks of one session (or one subagent of it): finds the commands an event
 * matches, runs them in parallel and combines what they said.
 */
export class Hooks {
  constructor(
    private readonly table: HookTable,
    private readonly context: HookContext,
    /** Shared with the subagents' views, so /hooks shows their runs too. */
    private readonly last = new Map<string, HookRunRecord>(),
    /** Events still running, shared the same way: the session waits for them before it ends. */
    private readonly running = new Set<Promise<unknown>>(),
  ) {}

  /** Resolves when no event's hooks are running (one fired in the background included). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Whether any command is configured for the event (so callers can skip building its input). */
  has(event: HookEvent): boolean {
    return (this.table.get(event)?.length ?? 0) > 0;
  }

  /** The same hooks seen from inside a subagent: its input carries `agent_id` and `agent_type`. */
  forAgent(agent: { id: string; type: string }): Hooks {
    return new Hooks(this.table, { ...this.context, agent }, this.last, this.running);
  }

  /** Every configured command with its newest result, for /hooks. */
  listing(): { command: HookCommand; last: HookRunRecord | undefined }[] {
    return [...this.table.values()].flat().map((command) => ({ command, last: this.last.get(key(command)) }));
  }

  /**
   * Runs the event's matching commands with `fields` added to the common input. `names` are what
   * the matcher is compared with when the event matches a tool (its Claude Code name and shiro's);
   * otherwise the event's own field is.
   */
  async fire(event: HookEvent, fields: Record<string, unknown>, options: FireOptions = {}): Promise<HookOutcome> {
    const commands = this.matching(event, fields, options.names);
    if (commands.length === 0) return NO_OUTCOME;
    const input = JSON.stringify({
      session_id: this.context.sessionId(),
      transcript_path: this.context.transcriptPath(),
      cwd: this.context.cwd,
      hook_event_name: event,
      permission_mode: this.context.permissionMode(),
      ...(this.context.agent ? { agent_id: this.context.agent.id, agent_type: this.context.agent.type } : {}),
      ...fields,
    });
    const all = Promise.all(
      commands.map(async (command): Promise<HookVerdict> => {
        const run = await runHookCommand(command.command, input, { cwd: this.context.cwd, env: this.context.env, timeoutS: command.timeoutS, signal: options.signal });
        const verdict = readVerdict(event, command, run);
        options.onRun?.(this.record(verdict, typeof fields.tool_name === "string" ? fields.tool_name : undefined));
        return verdict;
      }),
    );
    this.running.add(all);
    try {
      return combineVerdicts(await all);
    } finally {
      this.running.delete(all);
    }
  }

  private matching(event: HookEvent, fields: Record<string, unknown>, names: readonly string[] | undefined): HookCommand[] {
    const field = MATCHED_FIELD[event];
    const value = names ?? (field !== undefined && typeof fields[field] === "string" ? [fields[field] as string] : undefined);
    const seen = new Set<string>();
    const out: HookCommand[] = [];
    for (const command of this.table.get(event) ?? []) {
      if (field !== undefined && !matcherMatches(command.matcher, value ?? [])) continue;
      if (seen.has(command.command)) continue; // the same command in two matching groups runs once
      seen.add(command.command);
      out.push(command);
    }
    return out;
  }

  private record(verdict: HookVerdict, tool: string | undefined): HookRunRecord {
    const { command, run } = verdict;
    const decision = verdict.error ? "error" : verdict.stop ? "stop" : (verdict.permission ?? (verdict.blocks ? "block" : undefined));
    const reason = verdict.error ?? verdict.permissionReason ?? verdict.reason;
    const record: HookRunRecord = {
      event: command.event,
      ...(tool ? { tool } : {}),
      command: command.command,
      origin: command.origin,
      exitCode: run.exitCode,
      ...(decision ? { decision } : {}),
      ...(reason ? { reason } : {}),
      durationMs: run.durationMs,
    };
    this.last.set(key(command), record);
    return record;
  }
}

const key = (command: HookCommand) => `${command.event}\0${command.matcher ?? ""}\0${command.command}\0${command.origin}`;
