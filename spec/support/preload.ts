// Test isolation: nothing a test runs may touch the real home directory or use a real key.
import { afterAll } from "bun:test";
import { join } from "node:path";
import { makeTempDir, removeTempDirs } from "./temp-dirs.ts";

// After the last test of the run (a hook in the preload is global). A whole run leaves a few
// thousand folders: removing them takes longer than a hook's default time on a busy machine.
afterAll(removeTempDirs, { timeout: 120_000 });

const home = makeTempDir("shiro-test-home-");
process.env.HOME = home;
process.env.SHIRO_HOME = join(home, ".shiro-neko");
for (const key of ["OPENAI_API_KEY", "SHIRO_API_KEY", "OPENAI_BASE_URL", "SHIRO_BASE_URL", "SHIRO_MODEL"]) {
  delete process.env[key];
}
process.env.NO_COLOR = "1";
// MCP sign-in tokens of code run in this process stay in its temp SHIRO_HOME, never in the system's keychain.
process.env.SHIRO_MCP_TOKEN_STORE = "file";

