/**
 * The user docs (docs/*.md) as `shiro help` topics: the pure part. A topic is a doc's file name
 * without `.md`; its one-line description is the doc's first heading; a doc whose text carries
 * DEVELOPER_MARK is listed apart, as a page for people working on shiro itself.
 */

/** An HTML comment (invisible on GitHub) that puts a doc under "for developers" in `shiro help`. */
export const DEVELOPER_MARK = "<!-- shiro help: for developers -->";

export type HelpTopic = { name: string; title: string; developer: boolean };

/** The topic a doc's file name gives (`permissions.md` → `permissions`), or undefined for another file. */
export function topicName(fileName: string): string | undefined {
  const match = /^([a-z0-9][a-z0-9-]*)\.md$/.exec(fileName);
  return match ? match[1] : undefined;
}

/** What `shiro help` lists for a doc: its name, its first heading, and whether it is for developers. */
export function describeTopic(name: string, text: string): HelpTopic {
  const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(text);
  return { name, title: heading ? heading[1]! : name, developer: text.split("\n").some(isMark) };
}

/**
 * A doc as `shiro help` shows it: without the developer mark, and with its links to other docs
 * (`[the sandbox](permissions.md#the-sandbox)`) turned into the command that shows them
 * (`the sandbox (shiro help permissions)`), since an installed shiro has no docs folder to open.
 * Links elsewhere (web addresses, the source tree) stay as written.
 */
export function helpText(text: string, topics: ReadonlySet<string>): string {
  const withoutMark = text.split("\n").filter((line) => !isMark(line)).join("\n");
  return withoutMark.replace(/\[([^\]\n]+)\]\(([a-z0-9][a-z0-9-]*)\.md(#[^)\s]*)?\)/g, (whole, label: string, name: string) => {
    if (!topics.has(name)) return whole;
    // `[permissions.md](permissions.md)`: the file's name says nothing the command does not.
    return label === `${name}.md` ? `\`shiro help ${name}\`` : `${label} (\`shiro help ${name}\`)`;
  });
}

/** The mark counts on a line of its own; a doc that only mentions it (in a sentence, in code) is not marked. */
function isMark(line: string): boolean {
  return line.trim() === DEVELOPER_MARK;
}

/** The listing `shiro help` prints: the user topics, then the developer ones, names aligned. */
export function topicListing(topics: readonly HelpTopic[]): string {
  const width = Math.max(0, ...topics.map((t) => t.name.length)) + 3;
  const rows = (list: readonly HelpTopic[]) => list.map((t) => `  ${t.name.padEnd(width)}${t.title}`);
  const user = topics.filter((t) => !t.developer);
  const developer = topics.filter((t) => t.developer);
  const lines = ["The guides to shiro, built into this program. Run shiro help <topic> to read one:", "", ...rows(user)];
  if (developer.length > 0) lines.push("", "For people working on shiro itself:", "", ...rows(developer));
  return lines.join("\n") + "\n";
}
