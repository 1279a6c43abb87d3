/**
 * The lines of a UTF-8 byte stream as they arrive, without their newlines; a last line with no
 * newline after it comes too. For programs that print one record per line (ripgrep --json, the
 * sandbox runner).
 */
export async function* streamLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = pending.indexOf("\n")) !== -1) {
      yield pending.slice(0, newline);
      pending = pending.slice(newline + 1);
    }
  }
  pending += decoder.decode();
  if (pending) yield pending;
}
