/**
 * The one way langchain-vcr replaces a method of a LangChain class: once per prototype (each
 * copy of @langchain/core has its own), the original kept under a marker symbol. The method
 * must exist: `check.ts` has verified every listed internal before any patch runs, so a
 * missing one here is a bug in the table, not a silent skip.
 */
import { PREFIX } from "../errors";

/** Defines `obj[name] = fn` as a class method is defined (writable, configurable, not enumerable). */
export function defineMethod(obj: object, name: PropertyKey, fn: unknown): void {
  Object.defineProperty(obj, name, { value: fn, writable: true, configurable: true, enumerable: false });
}

/** Replaces `proto[name]` with `wrap(original)` unless this prototype carries `marker` already. */
export function patchOnce<F extends (...args: never[]) => unknown>(proto: object, name: string, marker: symbol, wrap: (original: F) => F): void {
  if (Object.prototype.hasOwnProperty.call(proto, marker)) return;
  const original = (proto as Record<string, unknown>)[name];
  if (typeof original !== "function") throw new Error(`${PREFIX}internal error: ${name} is not in src/internals/table.ts`);
  defineMethod(proto, name, wrap(original as F));
  Object.defineProperty(proto, marker, { value: original });
}

/** The method `patchOnce` replaced on this prototype, if it did. */
export function originalOf(proto: object, marker: symbol): unknown {
  return (Object.getOwnPropertyDescriptor(proto, marker) as { value?: unknown } | undefined)?.value;
}
