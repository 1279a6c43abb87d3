import { titleFromPrompt } from "./title.ts";

/** Width of the command column in the resume hints, as in the spec. */
const COMMAND_COLUMN = 28;

export type ExitMessageOptions = {
  /** Messages on disk for this session; 0 means it was never written. */
  messageCount: number;
  title: string;
  /** The session's shortest unique prefix (shortestUniquePrefix). */
  idPrefix: string;
};

/**
 * What shiro prints as it exits: how to come back to this session. A session with no messages
 * was never written, so it says that instead of naming a command that would find nothing.
 * Ends with a newline.
 */
export function exitMessage(opts: ExitMessageOptions): string {
  if (opts.messageCount === 0) return "Good bye.\nNo messages were saved, so there is nothing to resume.\n";
  const noun = opts.messageCount === 1 ? "message" : "messages";
  // A title from a file edited by hand can be any length: shown as the one short line shiro would write.
  const title = titleFromPrompt(opts.title);
  const saved = title ? `Saved ${opts.messageCount} ${noun}: "${title}"` : `Saved ${opts.messageCount} ${noun}.`;
  const hints: [string, string][] = [
    ["shiro -c", "newest session in this directory"],
    [`shiro -r ${opts.idPrefix}`, "this session by id"],
  ];
  const width = Math.max(COMMAND_COLUMN, ...hints.map(([command]) => command.length + 2));
  const lines = hints.map(([command, meaning]) => `  ${command.padEnd(width)}${meaning}`);
  return ["Good bye.", saved, "", "Resume it with:", ...lines, ""].join("\n");
}

/**
 * The headless text mode's ending: one line on stderr that keeps the exit message's purpose (the
 * id on screen as shiro exits) without its farewell block in every CI log. Ends with a newline.
 */
export function headlessExitLine(opts: Pick<ExitMessageOptions, "messageCount" | "idPrefix">): string {
  if (opts.messageCount === 0) return "nothing was saved, so there is no session to resume\n";
  return `saved session ${opts.idPrefix} · resume with shiro -r ${opts.idPrefix}\n`;
}
