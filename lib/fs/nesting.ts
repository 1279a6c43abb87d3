/**
 * Objects and arrays nested deeper than this make a session file damaged. JSON.parse reads far
 * deeper structures than JSON.stringify (and so the next save, the token estimate or the request
 * to the provider) can write back, at about 30,000 levels in Bun: a file nested that deep would
 * load and then crash shiro. No real conversation comes anywhere near this.
 */
export const MAX_SESSION_NESTING = 1_000;

/** True when `value` holds objects or arrays nested more than `max` levels deep. Iterative, so it cannot overflow the stack itself. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ node: object; depth: number }> = [];
  if (value !== null && typeof value === "object") stack.push({ node: value, depth: 1 });
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push({ node: child, depth: depth + 1 });
    }
  }
  return false;
}
