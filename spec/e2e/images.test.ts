// Images (docs/interactive.md "Attaching images"): `@shot.png` and a pasted path go with the prompt as an image
// part, read_file of an image shows the model the image, over both wires; the strict fake checks every image
// part (validate-images.ts). A model known not to take images is refused before anything is sent; an unknown
// one's refusal is worded the same way; a large image is shrunk or refused with the limit named; a resumed
// session sends its images again from the store.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useFakeServer } from "../support/use-fake-server.ts";
import { runShiro, tempDir } from "../support/cli.ts";
import { WIRES } from "../support/requests.ts";
import { lastUserText } from "../repl/pty.ts";
import { gifHeader, imagesIn, pngOf, sizeOf } from "../support/images.ts";

const serve = useFakeServer();

for (const { wire, flags } of WIRES) {
  describe(`images over ${wire}`, () => {
    test("@shot.png goes with the prompt as an image part of the user message, bytes as they are", async () => {
      const work = tempDir();
      const png = pngOf(40, 30);
      writeFileSync(join(work, "shot.png"), png);
      const s = await serve({ text: "A gradient." });
      const run = await runShiro(["-p", "what is in @shot.png?", ...flags], { baseURL: s.url, cwd: work });
      expect(run.stderr).toContain("attached shot.png (image, 40×30)");
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("A gradient.\n");
      const images = imagesIn(s.requests[0]!.body);
      expect(images).toHaveLength(1);
      expect(images[0]!.where).toBe("user");
      expect(images[0]!.mediaType).toBe("image/png");
      expect(Buffer.from(images[0]!.bytes).equals(Buffer.from(png))).toBe(true);
      expect(lastUserText(s.requests[0]!.body)).toStartWith("what is in @shot.png?\n\n<attached path=\"shot.png\" kind=\"image\"");
    });

    test("a pasted path, quoted with a space in it and outside the project, is attached too", async () => {
      const work = tempDir();
      const shots = tempDir();
      writeFileSync(join(shots, "Screen Shot 1.png"), pngOf(20, 10));
      const s = await serve({ text: "Seen." });
      const run = await runShiro(["-p", `why does it look like this '${join(shots, "Screen Shot 1.png")}'`, ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("(image, 20×10)");
      expect(imagesIn(s.requests[0]!.body).map((i) => i.where)).toEqual(["user"]);
    });

    for (const client of ["openai", "compatible"]) test(`read_file of an image gives the model the image with the tool's result (${client} client)`, async () => {
      const work = tempDir();
      const png = pngOf(32, 16);
      writeFileSync(join(work, "chart.png"), png);
      const s = await serve({ toolCalls: [{ name: "read_file", input: { path: "chart.png" } }] }, { text: "It is a chart." });
      const run = await runShiro(["-p", "look at the chart", ...flags], { baseURL: s.url, cwd: work, env: { SHIRO_CLIENT: client } });
      expect(run.code).toBe(0);
      const second = s.requests[1]!.body;
      const images = imagesIn(second);
      expect(images).toHaveLength(1);
      expect(Buffer.from(images[0]!.bytes).equals(Buffer.from(png))).toBe(true);
      if (wire === "chat") {
        // Chat Completions tool messages cannot carry images: the tool's text says so, the image follows as a user message.
        const messages: any[] = second.messages;
        const tool = messages.findIndex((m) => m.role === "tool");
        expect(messages[tool].content).toContain("chart.png: PNG image, 32×16");
        expect(messages[tool].content).toContain("in the user message after the tool results");
        expect(messages[tool + 1].role).toBe("user");
        expect(images[0]!.where).toBe("user");
      } else {
        expect(images[0]!.where).toBe("tool output");
        const output = second.input.find((i: any) => i.type === "function_call_output").output;
        expect(output[0]).toMatchObject({ type: "input_text" });
        expect(output[0].text).toContain("chart.png: PNG image, 32×16");
      }
    });

    test("a project's command naming an image outside the project does not send it; the same path typed as the command's argument does", async () => {
      const work = tempDir();
      const pictures = tempDir();
      const shot = join(pictures, "private.png");
      writeFileSync(shot, pngOf(10, 10));
      const { mkdirSync } = await import("node:fs");
      mkdirSync(join(work, ".shiro", "commands"), { recursive: true });
      writeFileSync(join(work, ".shiro", "commands", "look.md"), `Describe @${shot} and ${shot} $ARGUMENTS\n`);
      const s = await serve({ text: "Nothing." }, { text: "Seen." });
      const fromProject = await runShiro(["-p", "/look", ...flags], { baseURL: s.url, cwd: work });
      expect(fromProject.code).toBe(0);
      expect(fromProject.stderr).toContain(`not attached: ${shot} is outside the workspace and was named by the project's command file, not typed by you`);
      expect(imagesIn(s.requests[0]!.body)).toHaveLength(0);
      const typed = await runShiro(["-p", `/look ${shot}`, ...flags], { baseURL: s.url, cwd: work });
      expect(typed.code).toBe(0);
      expect(typed.stderr).toContain(`attached ${shot} (image, 10×10)`);
      expect(imagesIn(s.requests[1]!.body)).toHaveLength(1);
    });

    test("a model known not to take images is refused before anything is sent: one line, exit 1", async () => {
      const work = tempDir();
      writeFileSync(join(work, "shot.png"), pngOf(8, 8));
      const s = await serve();
      const run = await runShiro(["-p", "what is in @shot.png?", "-m", "gpt-3.5-turbo", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("gpt-3.5-turbo does not take images (built-in table): switch to a model that does (/model, --model), or send the prompt without the image");
      expect(s.requests).toHaveLength(0);
    });

    test("the config's models.<id>.images: false refuses the same way, naming the config", async () => {
      const work = tempDir();
      const home = tempDir("shiro-home-");
      writeFileSync(join(work, "shot.png"), pngOf(8, 8));
      const { mkdirSync } = await import("node:fs");
      mkdirSync(join(home, ".shiro-neko"), { recursive: true });
      writeFileSync(join(home, ".shiro-neko", "config.json"), JSON.stringify({ models: { "gpt-5-mini": { images: false } } }));
      const s = await serve();
      const run = await runShiro(["-p", "@shot.png", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("gpt-5-mini does not take images (config models)");
      expect(s.requests).toHaveLength(0);
    });

    test("an unknown model's 400 about the image is given as the same line; the session goes on without images", async () => {
      serve.allowRejections("the server's model takes no images: the refusal is what the test reads");
      const work = tempDir();
      const home = tempDir("shiro-home-");
      writeFileSync(join(work, "shot.png"), pngOf(8, 8));
      const s = await serve.with({ models: { "local-coder": { contextWindow: 200_000, images: false } } })({ text: "Without it, then." });
      const run = await runShiro(["-p", "what is in @shot.png?", "-m", "local-coder", ...flags], { baseURL: s.url, cwd: work, home });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("local-coder does not take images (the server refused the image): switch to a model that does (/model, --model), or send the prompt without the image");
      expect(s.requests).toHaveLength(1);
      expect(s.errors).toHaveLength(1);
      expect(s.errors[0]).toContain("configured without images");
      // Remembered: the next run sends the session's image as a line, and the server takes the request.
      const again = await runShiro(["-c", "-p", "go on without it", "-m", "local-coder", ...flags], { baseURL: s.url, cwd: work, home });
      expect(again.code).toBe(0);
      expect(again.stdout).toBe("Without it, then.\n");
      expect(imagesIn(s.requests[1]!.body)).toHaveLength(0);
      expect(JSON.stringify(s.requests[1]!.body)).toContain("[image shot.png (8×8) not sent: local-coder does not take images]");
      // And a new image for it is refused before anything is sent.
      const third = await runShiro(["-p", "@shot.png", "-m", "local-coder", ...flags], { baseURL: s.url, cwd: work, home });
      expect(third.stderr).toContain("local-coder does not take images (the server refused an image)");
      expect(s.requests).toHaveLength(2);
    });

    test("an image over 2048 pixels a side is shrunk below the limit before it is sent", async () => {
      const work = tempDir();
      writeFileSync(join(work, "wide.png"), pngOf(3000, 600));
      const s = await serve({ text: "Wide." });
      const run = await runShiro(["-p", "@wide.png", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/attached wide\.png \(image, shrunk from 3000×600 [\d.]+ MB to 2048×410 [\d.]+ MB\)/);
      const [image] = imagesIn(s.requests[0]!.body);
      expect(sizeOf(image!.bytes)).toEqual({ width: 2048, height: 410 });
    });

    test("an image shiro cannot shrink is refused with the limit named, and the prompt goes without it", async () => {
      const work = tempDir();
      writeFileSync(join(work, "anim.gif"), gifHeader(4000, 100));
      const s = await serve({ text: "No image." });
      const run = await runShiro(["-p", "@anim.gif", ...flags], { baseURL: s.url, cwd: work });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("not attached: anim.gif is 4000×100 (the limit is 2048 pixels a side), and shiro shrinks only PNG and JPEG images");
      expect(imagesIn(s.requests[0]!.body)).toHaveLength(0);
    });

    test("-c after an image turn sends the image again from the store; the session file holds a reference, not the bytes", async () => {
      const work = tempDir();
      const home = tempDir("shiro-home-");
      const png = pngOf(200, 200, "noise");
      writeFileSync(join(work, "shot.png"), png);
      const s = await serve({ text: "Noise." }, { text: "Still noise." });
      expect((await runShiro(["-p", "what is @shot.png?", ...flags], { baseURL: s.url, cwd: work, home })).code).toBe(0);
      const again = await runShiro(["-c", "-p", "and now?", ...flags], { baseURL: s.url, cwd: work, home });
      expect(again.code).toBe(0);
      expect(again.stdout).toBe("Still noise.\n");
      const images = imagesIn(s.requests[1]!.body);
      expect(images).toHaveLength(1);
      expect(Buffer.from(images[0]!.bytes).equals(Buffer.from(png))).toBe(true);
      const sessions = join(home, ".shiro-neko", "sessions");
      const file = readdirSync(sessions).find((f) => f.endsWith(".json"))!;
      expect(statSync(join(sessions, file)).size).toBeLessThan(png.length / 4);
      expect(readFileSync(join(sessions, file), "utf8")).not.toContain(Buffer.from(png).toString("base64").slice(0, 200));
      expect(readdirSync(join(home, ".shiro-neko", "images"))).toHaveLength(1);
    });
  });
}

describe("what the server's model metadata says decides", () => {
  const CONTEXT_ENV = { SHIRO_CONTEXT_WINDOW: undefined, SHIRO_CLIENT: undefined };
  const models = { "text-coder": { contextWindow: 200_000, images: false }, "eyes": { contextWindow: 200_000, images: true } };
  const SAID_BY = [
    ["openrouter", "OpenRouter /models"],
    ["ollama", "ollama /api/show"],
    ["lmstudio", "LM Studio /api/v0/models"],
  ] as const;

  for (const [vendor, endpoint] of SAID_BY) {
    test(`${vendor}: a model its metadata says reads text only is refused before the prompt is sent`, async () => {
      const work = tempDir();
      writeFileSync(join(work, "shot.png"), pngOf(8, 8));
      const s = await serve.with({ vendor, models })();
      const run = await runShiro(["-p", "@shot.png", "--provider", vendor, "--api", "chat", "-m", "text-coder"], { baseURL: s.url, cwd: work, env: CONTEXT_ENV });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`text-coder does not take images (${endpoint}):`);
      expect(s.requests.filter((r) => r.wire !== "other")).toHaveLength(0);
    });
  }

  test("llama.cpp: a server started without a vision projector refuses, one with it gets the image", async () => {
    const work = tempDir();
    writeFileSync(join(work, "shot.png"), pngOf(8, 8));
    const blind = await serve.with({ vendor: "llamacpp", models: { "text-coder": models["text-coder"] } })();
    const refused = await runShiro(["-p", "@shot.png", "--provider", "llamacpp", "--api", "chat", "-m", "text-coder"], { baseURL: blind.url, cwd: work, env: CONTEXT_ENV });
    expect(refused.stderr).toContain("text-coder does not take images (llama.cpp /props):");
    const seeing = await serve.with({ vendor: "llamacpp", models: { eyes: models.eyes } })({ text: "Eight by eight." });
    const run = await runShiro(["-p", "@shot.png", "--provider", "llamacpp", "--api", "chat", "-m", "eyes"], { baseURL: seeing.url, cwd: work, env: CONTEXT_ENV });
    expect(run.code).toBe(0);
    expect(imagesIn(seeing.requests.at(-1)!.body)).toHaveLength(1);
  });

  test("a model whose metadata says it takes images gets it (OpenRouter)", async () => {
    const work = tempDir();
    writeFileSync(join(work, "shot.png"), pngOf(8, 8));
    const s = await serve.with({ vendor: "openrouter", models })({ text: "Eight by eight." });
    const run = await runShiro(["-p", "@shot.png", "--provider", "openrouter", "--api", "chat", "-m", "eyes"], { baseURL: s.url, cwd: work, env: CONTEXT_ENV });
    expect(run.code).toBe(0);
    expect(imagesIn(s.requests.at(-1)!.body)).toHaveLength(1);
  });
});
