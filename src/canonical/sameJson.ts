/**
 * The memos' exactness test (hashMemo.ts, paramsMemo.ts): true only when `a` and `b` are the
 * same plain JSON tree, so that their canonical forms are the same. Plain means: objects whose
 * prototype is Object.prototype or null, arrays whose prototype is Array.prototype with no own
 * `map`, `constructor` or `toJSON` (the canonical form copies arrays with `map`, and a subclass
 * or an own `map` or `toJSON` could change what it writes), the same keys in the same order
 * (a member set to undefined is a member: `{ a: undefined }` matches only itself, never `{}`),
 * and primitives that are `===` (NaN never matches). Anything else counts as different, and is
 * then computed in full.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return sameTree(a, b, true);
}

/**
 * True only when `a` and `b` surely have the same canonical form: what `sameJson` says, with
 * object keys in any order (the canonical form sorts them). For skipping a hash that could
 * only give the answer already known; false when unsure (NaN, a member more or less, classes).
 */
export function sameUnordered(a: unknown, b: unknown): boolean {
  return sameTree(a, b, false);
}

function sameTree(a: unknown, b: unknown, ordered: boolean): boolean {
  if (typeof a !== "object" || a === null) return a === b && typeof a !== "function" && typeof a !== "symbol" && typeof a !== "bigint";
  if (typeof b !== "object" || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length || !isPlainArray(a) || !isPlainArray(b)) return false;
    for (let i = 0; i < a.length; i++) if (!sameTree(a[i], b[i], ordered)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    // unordered: the same count, and every key of a one of b's own enumerable keys (as Object.keys lists them)
    if (ordered ? k !== kb[i] : !Object.prototype.propertyIsEnumerable.call(b, k)) return false;
    if (!sameTree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], ordered)) return false;
  }
  return true;
}

function isPlainObject(o: object): boolean {
  const proto: unknown = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}

function isPlainArray(a: unknown[]): boolean {
  return Object.getPrototypeOf(a) === Array.prototype && !Object.hasOwn(a, "map") && !Object.hasOwn(a, "constructor") && !Object.hasOwn(a, "toJSON");
}
