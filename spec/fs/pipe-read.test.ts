import { describe, expect, test } from "bun:test";
import { pipeStream } from "../../lib/fs/pipe-read.ts";

const sh = (script: string) => Bun.spawn(["bash", "-c", script], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
const text = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

describe("a child's pipe, read as a stream", () => {
  test("chunks arrive as the program writes them, then the end", async () => {
    const child = sh("echo one; sleep 0.3; echo two");
    const reader = pipeStream(child.stdout).getReader();
    const first = await reader.read();
    expect(text(first.value)).toBe("one\n"); // before the program has written the rest
    let rest = "";
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += text(next.value);
    expect(rest).toBe("two\n");
    expect(await child.exited).toBe(0);
  });

  test("a large output comes whole, and a character split between two writes is decoded whole", async () => {
    // 2 MB of numbered lines, then "é" written as its two bytes in two separate writes.
    const child = sh("seq 1 300000; printf '\\303'; sleep 0.1; printf '\\251'; echo oops >&2");
    const [out, err] = await Promise.all([new Response(pipeStream(child.stdout)).text(), new Response(pipeStream(child.stderr)).text()]);
    const lines = out.split("\n");
    expect(lines).toHaveLength(300001);
    expect(lines[299999]).toBe("300000");
    expect(lines[300000]).toBe("é");
    expect(err).toBe("oops\n");
  });

  test("a reader that stops reading holds the child back instead of buffering without end", async () => {
    const child = sh("head -c 50000000 /dev/zero; echo done >&2");
    const reader = pipeStream(child.stdout).getReader();
    await reader.read();
    await Bun.sleep(300);
    // 50 MB would take well under 300 ms if nobody held it back; it waits on the full pipe.
    expect(child.exitCode).toBeNull();
    let got = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) got += next.value.length;
    expect(await child.exited).toBe(0);
    expect(got).toBeGreaterThan(49_000_000);
  });

  test("cancelling lets go of a pipe that a background process still holds", async () => {
    const child = sh("sleep 20 & echo $!; echo ready");
    const reader = pipeStream(child.stdout).getReader();
    let seen = "";
    while (!seen.includes("ready")) seen += text((await reader.read()).value);
    await child.exited;
    const pending = reader.read();
    await reader.cancel();
    // Ends instead of waiting 20 s for the background sleep to close its end of the pipe.
    const outcome = await Promise.race([pending.then((r) => (r.done ? "ended" : "more"), () => "ended"), Bun.sleep(2000).then(() => "still waiting")]);
    expect(outcome).toBe("ended");
    process.kill(Number(seen.split("\n")[0]), "SIGKILL");
  });
});
