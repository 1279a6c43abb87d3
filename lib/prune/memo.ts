/**
 * Caches a value derived from an object, keyed by the object's identity. The prune functions run
 * before every request over the whole history, so each message is serialised and transformed once,
 * not once per step. Sound only because messages are treated as immutable values: nothing in shiro
 * edits a message in place (the turn appends, repairs build new arrays).
 */
export function memoByIdentity<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    if (cache.has(key)) return cache.get(key) as V;
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}
