/**
 * How langchain-vcr replaces a method of a LangChain base class: once per prototype (each copy
 * of @langchain/core has its own), the original kept under a marker symbol on the prototype.
 */

/** Defines `proto[name] = fn` as a class method is defined (writable, configurable, not enumerable). */
export function defineMethod(proto: object, name: string, fn: unknown): void {
  Object.defineProperty(proto, name, { value: fn, writable: true, configurable: true });
}

/**
 * Replaces `proto[name]` with `wrap(original)`, unless `marker` says this prototype is patched
 * already or there is no such method.
 */
export function patchMethodOnce<F extends (...args: never[]) => unknown>(proto: object, name: string, marker: symbol, wrap: (original: F) => F): void {
  const original = (proto as Record<string, unknown>)[name];
  if (Object.prototype.hasOwnProperty.call(proto, marker) || typeof original !== "function") return;
  defineMethod(proto, name, wrap(original as F));
  Object.defineProperty(proto, marker, { value: original });
}
