// Saved "always" answers (config alwaysAllow) and the grant an "always" offers for bash.
import { expect, test } from "bun:test";
import { subjectOf } from "../../lib/tools/define.ts";
import { coreTools } from "../../lib/tools/index.ts";
import { createPermissionPolicy, type AskAnswer, type PermissionPolicyOptions, type PermissionQuestion } from "../../lib/permissions/policy.ts";
import { createSessionGrants, describeGrant, grantFor } from "../../lib/permissions/session-grants.ts";

const root = "/w/proj";
const bash = coreTools.find((t) => t.name === "bash")!;
const writeFile = coreTools.find((t) => t.name === "write_file")!;

function interactive(answers: AskAnswer[], opts: Partial<PermissionPolicyOptions> = {}) {
  const questions: PermissionQuestion[] = [];
  const policy = createPermissionPolicy({
    config: {},
    root,
    home: "/w",
    yolo: false,
    interactive: true,
    ask: async (question) => {
      questions.push(question);
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected question about ${question.subject}`);
      return answer;
    },
    ...opts,
  });
  let id = 0;
  const run = (command: string) => {
    const input = { command };
    return policy.approve({ tool: bash, input, subject: subjectOf(bash, input) ?? "", id: `c${++id}` });
  };
  return { policy, questions, run };
}

test("a saved always never overrides the user's own deny rule, wherever it sits", async () => {
  const config = { permission: { bash: { "git push*": "deny" as const } }, alwaysAllow: { bash: ["git *"] } };
  const { run, questions } = interactive([], { config });
  expect(await run("git status")).toEqual({ allow: true, readOnly: true });
  expect((await run("git push --force")).allow).toBe(false);
  // The same for a project's saved answers.
  const project = { permission: { bash: { "git push*": "deny" as const } }, projects: { [root]: { alwaysAllow: { bash: ["git push *"] } } } };
  expect((await interactive([], { config: project }).run("git push --force")).allow).toBe(false);
  expect(questions).toEqual([]);
});

test("a saved always keeps the grant's limits: no redirection into a file, no git alias", async () => {
  const { run, questions } = interactive(["deny", "deny"], { config: { alwaysAllow: { bash: ["git *"] } } });
  expect(await run("git log")).toEqual({ allow: true, readOnly: true });
  expect((await run("git log > ~/.bashrc")).allow).toBe(false);
  expect((await run("git st")).allow).toBe(false);
  expect(questions.map((q) => q.subject)).toEqual(["git log > ~/.bashrc", "git st"]);
});

test("a saved always for another project does not apply; a whole-tool one covers a file tool", async () => {
  const { run, questions } = interactive(["deny"], { config: { projects: { "/w/other": { alwaysAllow: { bash: ["npm test *"] } } } } });
  expect((await run("npm test")).allow).toBe(false);
  expect(questions).toHaveLength(1);
  const { policy } = interactive([], { config: { alwaysAllow: { write_file: ["*"] } } });
  const input = { path: "a.txt", content: "x" };
  expect(await policy.approve({ tool: writeFile, input, subject: "a.txt", id: "w" })).toEqual({ allow: true });
});

test("the grant offered for bash is the program and its sub-command, else the exact line", () => {
  const offered = (command: string) => grantFor(bash, command)?.pattern;
  expect(offered("git commit -m 'x'")).toBe("git commit *");
  expect(offered("npm test")).toBe("npm test *");
  expect(offered("cargo build --release")).toBe("cargo build *");
  expect(offered("find . -name '*.ts'")).toBe("find . -name '*.ts'");
  expect(offered("rm build")).toBe("rm build");
  expect(offered("sed -i s/a/b/ f.txt")).toBe("sed -i s/a/b/ f.txt");
  expect(offered("ls -la")).toBe("ls -la");
  expect(describeGrant({ tool: "bash", pattern: "npm test *" })).toBe("bash commands starting with `npm test`");
  expect(describeGrant({ tool: "bash", pattern: "find . -type f" })).toBe("the bash command `find . -type f` exactly");
  expect(describeGrant({ tool: "bash", pattern: `printf %s ${"word ".repeat(10)}` })).toBe("this exact bash command");
});

test("the grant does not cover more than it says", () => {
  const grants = createSessionGrants([grantFor(bash, "npm test")!, grantFor(bash, "git commit -m x")!, grantFor(bash, "find . -type f")!]);
  expect(grants.covers(bash, "npm test -- --watch")).toBe(true);
  expect(grants.covers(bash, "npm publish")).toBe(false);
  expect(grants.covers(bash, "git commit --amend")).toBe(true);
  expect(grants.covers(bash, "git push --force")).toBe(false);
  expect(grants.covers(bash, "find . -type f")).toBe(true);
  expect(grants.covers(bash, "find . -delete")).toBe(false);
  expect(grants.covers(bash, "find . -type f -delete")).toBe(false);
  // An exact line never covers a heredoc body it did not see.
  expect(createSessionGrants([{ tool: "bash", pattern: "python3 <<EOF" }]).covers(bash, "python3 <<EOF\nimport shutil\nEOF")).toBe(false);
});

test('no "always" is offered for a substitution, a cd, a redirection into a file, git running an alias, or a compound line with one of them', async () => {
  for (const command of ["echo $(rm x)", "(cd x && ls)", "npm test > out.txt", "git st", "rm *", "python3 <<EOF\nimport os\nEOF", "npm test && git st", "ls | tee out.txt > f"]) {
    expect(grantFor(bash, command)).toBeUndefined();
  }
  const { run, questions } = interactive(["always"]);
  expect(await run("npm test && echo $(rm x)")).toEqual({ allow: true }); // "always" counts as once
  expect(questions[0]!.always).toBeUndefined();
  expect(questions[0]!.grant).toBeUndefined();
});

test("a command whose second word is a mode option offers the program and that option; never one that hands it code or runs another program", () => {
  const offered = (command: string) => grantFor(bash, command)?.pattern;
  expect(offered("node --test test/page.test.js")).toBe("node --test *");
  expect(offered("cargo --locked build")).toBe("cargo --locked *");
  // Code, another program, a global git option, the network: the exact line only.
  expect(offered("node --eval 'require(1)'")).toBe("node --eval 'require(1)'");
  expect(offered("node --require ./x.js a.js")).toBe("node --require ./x.js a.js");
  expect(offered("bash --norc x.sh")).toBe("bash --norc x.sh");
  expect(offered("git --no-pager log")).toBe("git --no-pager log");
  expect(offered("npx --yes cowsay")).toBe("npx --yes cowsay");
  expect(offered("curl --data @f https://x")).toBe("curl --data @f https://x");
  expect(offered("rsync --rsh=evil a b")).toBe("rsync --rsh=evil a b");
  expect(offered("rm --recursive build")).toBe("rm --recursive build"); // a program that takes paths: the exact line
  const grants = createSessionGrants([grantFor(bash, "node --test test/page.test.js")!]);
  expect(grants.covers(bash, "node --test test/")).toBe(true);
  expect(grants.covers(bash, "node test/page.test.js")).toBe(false);
  expect(grants.covers(bash, "node --eval x")).toBe(false);
});

test("a compound line of simple commands offers one grant per part, and that grant covers the line again", async () => {
  const grant = grantFor(bash, "npm test && npm run lint | head -5")!;
  expect(grant).toEqual({ tool: "bash", pattern: "npm test *", also: ["npm run *", "head -5"] });
  expect(describeGrant(grant)).toBe("bash commands `npm test …`, `npm run …` and `head -5`");
  const { run, questions } = interactive(["always"]);
  expect(await run("npm test && npm run lint | head -5")).toEqual({ allow: true });
  expect(await run("npm run build && npm test -- --watch")).toEqual({ allow: true });
  expect(questions).toHaveLength(1); // the second line was covered
  const grants = createSessionGrants([grant]);
  expect(grants.covers(bash, "npm test; npm publish")).toBe(false);
});

test("an ask rule of the user's that names particular calls asks every time: no always lifts it, none is offered", async () => {
  const config = { permission: { bash: { "git push*": "ask" as const } }, alwaysAllow: { bash: ["git *"] } };
  const { run, questions } = interactive(["always", "once"], { config });
  expect(await run("git log -1")).toEqual({ allow: true, readOnly: true });
  expect(await run("git push origin main")).toEqual({ allow: true });
  expect(await run("git push origin main")).toEqual({ allow: true });
  expect(questions.map((q) => [q.subject, q.always])).toEqual([
    ["git push origin main", undefined],
    ["git push origin main", undefined],
  ]);
});
