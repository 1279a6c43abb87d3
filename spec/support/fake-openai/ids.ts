// Id generation shaped like OpenAI's. A process-wide counter is folded into every id, so ids never repeat
// across requests or across servers started in the same process (a reference to another server's item is
// therefore "never issued" here, as it would be for a different OpenAI org).

let counter = 0;
const session = Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, "0");

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0").slice(-width);

function randomHex(len: number): string {
  let s = "";
  while (s.length < len) s += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, "0");
  return s.slice(0, len);
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
function randomAlnum(len: number): string {
  let s = "";
  for (let i = 0; i < len; i++) s += ALNUM[Math.floor(Math.random() * ALNUM.length)];
  return s;
}

/** Responses item/response ids: prefix + 50 hex chars, like "msg_017eebd5…". */
export function itemId(prefix: "resp" | "msg" | "rs" | "fc"): string {
  counter += 1;
  return `${prefix}_${session}${hex(counter, 10)}${randomHex(32)}`;
}

/** Tool call ids: "call_" + 24 alphanumerics, with the counter embedded for uniqueness. */
export function callId(): string {
  counter += 1;
  return `call_${randomAlnum(16)}${hex(counter, 8)}`;
}

/** Chat completion ids: "chatcmpl-" + 29 alphanumerics. */
export function completionId(): string {
  counter += 1;
  return `chatcmpl-${randomAlnum(21)}${hex(counter, 8)}`;
}

export function requestId(): string {
  counter += 1;
  return `req_${randomHex(24)}${hex(counter, 8)}`;
}

/** Opaque stand-in for encrypted reasoning content; it names its item so a mismatch is visible in dumps. */
export function encryptedContent(id: string): string {
  return `gAAAAAB${Buffer.from(JSON.stringify({ fake: true, id })).toString("base64")}`;
}

/** `len` characters from `alphabet`: random ones, then the process-wide counter in hex (so ids never repeat).
 *  For vendor call ids with their own lengths and alphabets (Mistral's 9, ollama's 8 lowercase). */
export function uniqueToken(len: number, alphabet = ALNUM): string {
  counter += 1;
  let s = "";
  for (let i = 0; i < len - 4; i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
  return s + hex(counter, 4);
}

export { randomHex, randomAlnum };
