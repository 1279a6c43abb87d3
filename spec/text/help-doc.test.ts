// docs/*.md as `shiro help` topics: names, one-line descriptions, the developer mark, and links to
// other docs turned into the command that shows them.
import { expect, test } from "bun:test";
import { DEVELOPER_MARK, describeTopic, helpText, topicListing, topicName } from "../../lib/text/help-doc.ts";

test("a topic is a doc's file name without .md; other files are none", () => {
  expect(topicName("permissions.md")).toBe("permissions");
  expect(topicName("task-list.md")).toBe("task-list");
  expect(topicName("notes.txt")).toBeUndefined();
  expect(topicName("README.MD")).toBeUndefined();
  expect(topicName(".hidden.md")).toBeUndefined();
});

test("a topic's description is its first heading; the mark counts only on a line of its own", () => {
  expect(describeTopic("state", "# What shiro remembers\n\n## Later\n")).toEqual({ name: "state", title: "What shiro remembers", developer: false });
  expect(describeTopic("architecture", `${DEVELOPER_MARK}\n# The map\n`)).toMatchObject({ title: "The map", developer: true });
  expect(describeTopic("x", `# X\n\nA doc with \`${DEVELOPER_MARK}\` is listed apart.\n`).developer).toBe(false);
  expect(describeTopic("bare", "no heading at all\n").title).toBe("bare");
});

test("links to other topics become the command; a link to a file that is no topic, or to the web, stays", () => {
  const topics = new Set(["permissions", "configuration"]);
  const text = `${DEVELOPER_MARK}\n# T\n\nSee [the sandbox](permissions.md#the-sandbox), [configuration.md](configuration.md), [x](missing.md), [site](https://example.com/a.md).\n`;
  expect(helpText(text, topics)).toBe(
    "# T\n\nSee the sandbox (`shiro help permissions`), `shiro help configuration`, [x](missing.md), [site](https://example.com/a.md).\n",
  );
});

test("the listing aligns the names, user topics first, developer pages apart", () => {
  const listing = topicListing([
    { name: "agents", title: "Agent variants", developer: false },
    { name: "architecture", title: "The map", developer: true },
    { name: "state", title: "What shiro remembers", developer: false },
  ]);
  expect(listing.split("\n")).toEqual([
    "The guides to shiro, built into this program. Run shiro help <topic> to read one:",
    "",
    "  agents         Agent variants",
    "  state          What shiro remembers",
    "",
    "For people working on shiro itself:",
    "",
    "  architecture   The map",
    "",
  ]);
});
