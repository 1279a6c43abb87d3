/**
 * `shiro help [<topic>]`: the user docs, read from inside the binary. scripts/compile.ts embeds
 * every docs/*.md as `help/<name>.md` (so a doc added later is a topic with no list to keep);
 * run from the source tree (`bun cmd/shiro.ts`), the docs folder beside it is read instead.
 * Loaded only for `shiro help`: nothing here runs at start-up, and a doc is read only when shown.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describeTopic, helpText, topicListing, topicName } from "../lib/text/help-doc.ts";
import { renderMarkdown } from "../lib/text/markdown.ts";
import { colorEnabled, createTheme } from "./repl/theme.ts";

/** Where scripts/compile.ts puts the docs inside the binary. */
export const EMBEDDED_DIR = "help/";

type Source = { name: string; read: () => Promise<string> };

let sources: Source[] | undefined;

/** The topics this shiro carries, by name, sorted; their texts are not read yet. */
function topicSources(): Source[] {
  if (sources) return sources;
  const found = new Map<string, () => Promise<string>>();
  for (const file of Bun.embeddedFiles as Array<Blob & { name: string }>) {
    const name = file.name.startsWith(EMBEDDED_DIR) ? topicName(file.name.slice(EMBEDDED_DIR.length)) : undefined;
    if (name) found.set(name, () => file.text());
  }
  if (found.size === 0 && !Bun.main.startsWith("/$bunfs/")) {
    const dir = join(import.meta.dir, "..", "docs");
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // no docs folder: no topics
    }
    for (const file of names) {
      const name = topicName(file);
      if (name) found.set(name, () => Bun.file(join(dir, file)).text());
    }
  }
  sources = [...found].sort(([a], [b]) => a.localeCompare(b)).map(([name, read]) => ({ name, read }));
  return sources;
}

/** Whether `word` names a help topic (the rule that makes `shiro help <word>` the help command). */
export function isHelpTopic(word: string): boolean {
  return topicSources().some((source) => source.name === word);
}

/**
 * Prints the listing (no topic) or one topic: rendered for a terminal (headings, lists, code,
 * colour unless NO_COLOR), the Markdown as written when stdout is a pipe or a file.
 */
export async function runHelpCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const all = topicSources();
  const [topic] = argv;
  if (topic === undefined) {
    const described = await Promise.all(all.map(async (source) => describeTopic(source.name, await source.read())));
    await Bun.write(Bun.stdout, described.length > 0 ? topicListing(described) : "This build of shiro carries no guides.\n");
    return 0;
  }
  const source = all.find((s) => s.name === topic)!;
  const text = helpText(await source.read(), new Set(all.map((s) => s.name)));
  const tty = process.stdout.isTTY === true;
  if (!tty) {
    await Bun.write(Bun.stdout, text.endsWith("\n") ? text : text + "\n");
    return 0;
  }
  const theme = createTheme(colorEnabled(env, tty));
  const width = Math.max(20, (process.stdout.columns || 80) - 1);
  await Bun.write(Bun.stdout, renderMarkdown(text, theme.markdown, width).join("\n") + "\n");
  return 0;
}
