import type { ApprovalMode } from "../config/permission-schema.ts";

/** What a mode does, in one line, as `/mode` and shift-tab report it. */
export function describeMode(mode: ApprovalMode, sandboxed: boolean): string {
  switch (mode) {
    case "ask":
      return "ask: edits and commands ask first (read-only commands run)";
    case "edits":
      return "edits: file edits inside the workspace run without asking; commands ask";
    case "auto":
      return sandboxed
        ? "auto: edits and commands run without asking, commands inside the sandbox"
        : "auto, as edits: file edits run without asking; commands ask (no sandbox)";
    default:
      return mode satisfies never;
  }
}

/**
 * Why `auto` cannot run commands without asking: there is no working sandbox (`off` or
 * `unavailable`). Undefined for any other mode, or when the sandbox works.
 */
export function modeNotice(mode: ApprovalMode, sandbox: "off" | "unavailable" | "on" | undefined): string | undefined {
  if (mode !== "auto" || sandbox === undefined || sandbox === "on") return undefined;
  const why = sandbox === "off" ? "the sandbox is off" : "the sandbox is unavailable";
  return `auto mode runs commands without asking only inside the sandbox, and ${why}: until it works, auto behaves like edits (commands ask).`;
}
