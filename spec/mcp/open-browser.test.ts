// The sign-in address (/mcp login, shiro mcp login) comes from an MCP server's metadata: it is
// opened only when it is http(s), and never through a shell that would read `&` as a separator.
import { expect, test } from "bun:test";
import { browserCommand } from "../../cmd/open-browser.ts";

const signIn = "https://auth.example/authorize?response_type=code&client_id=shiro&state=x";

test("an http(s) address opens with the system's opener, the whole query kept as one argument", () => {
  expect(browserCommand(signIn, { DISPLAY: ":0" }, "linux")).toEqual(["xdg-open", signIn]);
  expect(browserCommand(signIn, {}, "darwin")).toEqual(["open", signIn]);
  expect(browserCommand(signIn, {}, "win32")).toEqual(["rundll32", "url.dll,FileProtocolHandler", signIn]);
  expect(browserCommand(signIn, { BROWSER: "firefox --new-window" }, "linux")).toEqual(["firefox", "--new-window", signIn]);
  expect(browserCommand(signIn, {}, "linux")).toBeUndefined(); // no display: the printed address is the way
});

test("a server's address of another scheme (a file, a custom protocol handler) is not opened", () => {
  for (const url of ["file:///etc/passwd", "smb://evil.example/share", "ms-msdt:/id PCWDiagnostic", "javascript:alert(1)", "not a url"]) {
    expect(browserCommand(url, { DISPLAY: ":0", BROWSER: "firefox" }, "linux")).toBeUndefined();
    expect(browserCommand(url, {}, "win32")).toBeUndefined();
  }
});
