/** How much of a file is inspected to decide whether it is binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** True when the first BINARY_SNIFF_BYTES contain a NUL byte, the rule git and ripgrep use too. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
