import { describe, expect, test } from "bun:test";
import { pipeChunks, pipeText, readPipe, readPipeText } from "../../lib/fs/pipe-read.ts";

const sh = (script: string) => Bun.spawn(["bash", "-c", script], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });

describe("reading a child's pipe", () => {
  test("chunks arrive as the program writes them, and the end is reported after the last", async () => {
    const child = sh("echo one; sleep 0.2; echo two");
    const seen: string[] = [];
    const read = readPipeText(child.stdout, (text) => seen.push(text));
    while (seen.length === 0) await Bun.sleep(10);
    expect(seen).toEqual(["one\n"]); // before the program has written the rest
    await read.ended;
    expect(seen).toEqual(["one\n", "two\n"]);
    expect(await child.exited).toBe(0);
  });

  test("a large output comes whole, and a character split between two writes is decoded once", async () => {
    // 2 MB of numbered lines, then "é" written as its two bytes in two separate writes.
    const child = sh("seq 1 300000; printf '\\303'; sleep 0.1; printf '\\251'");
    const [text, errors] = await Promise.all([pipeText(child.stdout), pipeText(child.stderr)]);
    const lines = text.split("\n");
    expect(lines).toHaveLength(300001);
    expect(lines[299999]).toBe("300000");
    expect(lines[300000]).toBe("é");
    expect(errors).toBe("");
  });

  test("cancelling lets go of a pipe that a background process still holds", async () => {
    const child = sh("sleep 20 & echo $!; echo ready");
    let seen = "";
    const read = readPipe(child.stdout, (chunk) => (seen += new TextDecoder().decode(chunk)));
    while (!seen.includes("ready")) await Bun.sleep(10);
    await child.exited;
    read.cancel();
    // Ends instead of waiting 20 s for the background sleep to close its end of the pipe.
    const outcome = await Promise.race([read.ended.then(() => "ended"), Bun.sleep(2000).then(() => "still waiting")]);
    expect(outcome).toBe("ended");
    process.kill(Number(seen.split("\n")[0]), "SIGKILL");
  });

  test("a failing stream: the text reader ends with what came, the whole-text reader rejects", async () => {
    const failing = () =>
      new ReadableStream<Uint8Array>({
        start: (c) => {
          c.enqueue(new TextEncoder().encode("partial"));
          setTimeout(() => c.error(new Error("pipe broke")), 20);
        },
      });
    const seen: string[] = [];
    await readPipeText(failing(), (text) => seen.push(text)).ended;
    expect(seen.join("")).toBe("partial");
    await expect(pipeText(failing())).rejects.toThrow("pipe broke");
  });

  test("leaving a loop over the chunks early stops reading", async () => {
    const child = sh("yes shiro");
    let got = 0;
    for await (const chunk of pipeChunks(child.stdout)) {
      got += chunk.length;
      if (got > 100_000) break;
    }
    child.kill();
    expect(await child.exited).not.toBe(0);
    expect(got).toBeGreaterThan(100_000);
  });

  test("a stream that is not a pipe reads the same way", async () => {
    const bytes = new TextEncoder().encode("not started\n");
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(bytes), c.close()) });
    expect(await pipeText(stream)).toBe("not started\n");
  });
});
