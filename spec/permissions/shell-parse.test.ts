import { expect, test } from "bun:test";
import { commandParts } from "../../lib/permissions/command-parts.ts";
import { unwrapCommand } from "../../lib/permissions/invocation.ts";
import { parseShell, pipelines } from "../../lib/permissions/shell-parse.ts";

const words = (src: string) => parseShell(src).commands.map((command) => command.words.map((word) => word.text));

test("splits on ; && || | & and newlines, keeping each command's source", () => {
  const parsed = parseShell("a 1; b && c || d | e & f\ng");
  expect(parsed.commands.map((c) => [c.source, c.end])).toEqual([
    ["a 1", ";"],
    ["b", "&&"],
    ["c", "||"],
    ["d", "|"],
    ["e", "&"],
    ["f", "\n"],
    ["g", "end"],
  ]);
  expect(pipelines(parsed.commands).map((p) => p.map((c) => c.source))).toEqual([["a 1"], ["b"], ["c"], ["d", "e"], ["f"], ["g"]]);
});

test("removes quotes and escapes; separators inside quotes are text", () => {
  expect(words(`echo 'a; b' "c && d" e\\ f r""m`)).toEqual([["echo", "a; b", "c && d", "e f", "rm"]]);
  expect(words(`printf $'x\\ty'`)).toEqual([["printf", "x\ty"]]);
});

test("collects command substitutions outside single quotes", () => {
  expect(parseShell(`echo $(a) "$(b "c")" \`d\` '$(e)' <(f)`).substitutions).toEqual(["a", 'b "c"', "d", "f"]);
  expect(parseShell("echo $(a $(b))").substitutions).toEqual(["a $(b)"]);
});

test("redirections are not arguments; heredoc bodies are kept apart", () => {
  const [command] = parseShell("cat <<'EOF' > out.sql 2>&1\nDROP TABLE x;\nEOF\nls").commands;
  expect(command!.words.map((w) => w.text)).toEqual(["cat"]);
  expect(command!.redirects.map((r) => [r.op, r.target?.text])).toEqual([
    ["<<", "EOF"],
    [">", "out.sql"],
    [">&", "1"],
  ]);
  expect(command!.heredocs).toEqual(["DROP TABLE x;\n"]);
  expect(words("cat <<EOF\nrm -rf /\nEOF\nls")).toEqual([["cat"], ["ls"]]);
});

test("comments are skipped; a # inside a word is not a comment", () => {
  expect(words("echo a#b # rm -rf /")).toEqual([["echo", "a#b"]]);
});

test("flags expansions and globs", () => {
  const [command] = parseShell(`rm $X "\${Y}" '$Z' * "*"`).commands;
  expect(command!.words.map((w) => [w.text, w.expands, w.glob])).toEqual([
    ["rm", false, false],
    ["$X", true, false],
    ["${Y}", true, false],
    ["$Z", false, false],
    ["*", false, true],
    ["*", false, false],
  ]);
});

test("never throws on unterminated input", () => {
  for (const src of ["echo 'abc", 'echo "abc', "echo $(abc", "echo `abc", "cat <<EOF\nabc", "echo ${x", "a \\"]) {
    expect(() => parseShell(src)).not.toThrow();
  }
});

test("unwrapCommand peels wrappers, assignments and paths", () => {
  const inv = (src: string) => {
    const found = unwrapCommand(parseShell(src).commands[0]!.words);
    return found && [found.name, ...found.args.map((a) => a.text)];
  };
  expect(inv("sudo -u root env -i X=1 /usr/bin/rm -rf x")).toEqual(["rm", "-rf", "x"]);
  expect(inv("timeout -s KILL 5 nice -n 10 git push")).toEqual(["git", "push"]);
  expect(inv("X=1 Y=2")).toBeUndefined();
  expect(inv("command -v rm")).toBeUndefined();
  expect(inv("! then ls")).toEqual(["ls"]);
});

test("commandParts lists every command run, nested ones included, without cd", () => {
  expect(commandParts("cd src && npm test 2>&1 | tail -5; echo $(git rev-parse HEAD)").map((p) => p.source)).toEqual([
    "npm test 2>&1",
    "tail -5",
    "echo $(git rev-parse HEAD)",
    "git rev-parse HEAD",
  ]);
  expect(commandParts("bash -c 'rm a; rm b'").map((p) => p.source)).toEqual(["bash -c 'rm a; rm b'", "rm a", "rm b"]);
  expect(commandParts("FOO=1 git log > out.txt")).toEqual([
    { source: "FOO=1 git log > out.txt", program: "git", words: ["git", "log"], writesFile: true, unwrapped: "git log", git: { sub: "log", settings: [] } },
  ]);
  expect(commandParts("git log 2>/dev/null 2>&1")[0]!.writesFile).toBe(false);
});
