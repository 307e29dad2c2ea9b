/**
 * `vcr.install()` for embeddings. Each integration defines `embedQuery` / `embedDocuments` on
 * its own class (core's `Embeddings` declares them abstract), and every instance sets its
 * fields in its constructor, so there is no base method to wrap and no construction to see.
 * What can be reached is the classes: while a Vcr is installed, every class that extends a
 * copy of core's `Embeddings` and is exported by a CommonJS module (itself, or an instance
 * of it) — loaded before
 * `install()` (found in `require.cache`) or after it (seen as `require` returns it) — gets
 * its own `embedQuery` / `embedDocuments` (and those of its parent classes) wrapped once.
 * A wrapped method of an instance, while a Vcr is installed, goes through
 * `vcr.embeddings(instance)`: the same keys as an explicit wrapper.
 *
 * Left alone: a super call from a subclass's method (the instance's own, most derived
 * method already went through the Vcr), a wrapper holding `underlyingEmbeddings`
 * (`VcrEmbeddings`, `CacheBackedEmbeddings`: the embeddings inside are recorded), and the
 * live call a `VcrEmbeddings` makes to the embeddings it wraps (`liveEmbed`).
 *
 * ES modules and jest's module registry have no such cache: there `integrations.ts` loads the
 * known integrations and hands their exports to `scanExports`.
 */
import Module from "node:module"; // the module object itself (its _load is replaced); also compiles as an ES module
import { installedVcr } from "../internals/state";
import { processWide } from "../processWide";

type EmbedName = "embedQuery" | "embedDocuments";
type Embed = (this: object, arg: unknown) => Promise<unknown>;

const NAMES: readonly EmbedName[] = ["embedQuery", "embedDocuments"];
type Wrapper = ReturnType<NonNullable<ReturnType<typeof installedVcr>>["embeddings"]>;
type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
/** One per process: the CommonJS and ESM builds of langchain-vcr share it. */
const shared = processWide("install.embeddings.v1", () => ({
  /** `Embeddings` of each copy of core. */
  bases: new Set<{ prototype: object }>(),
  /** A wrapped method → the integration's own. */
  originals: new WeakMap<Embed, Embed>(),
  scanned: new WeakSet<object>(),
  wrappedPrototypes: new WeakSet<object>(),
  /** Our wrapper of `Module._load` and the function it wraps, while it is in place. */
  hook: undefined as { wrapper: Load; wrapped: Load } | undefined,
  /** One VcrEmbeddings per instance and installed Vcr. */
  byInstance: new WeakMap<object, { vcr: object; wrapper: Wrapper }>(),
}));
const { bases, originals, scanned, wrappedPrototypes, byInstance } = shared;

export function noteEmbeddingsClass(base: { prototype: object }): void {
  bases.add(base);
}

/** Calls the integration's own `name` of `inner`, never the install hook (used by VcrEmbeddings for its live call). */
export function liveEmbed<T>(inner: object, name: EmbedName, arg: unknown): Promise<T> {
  const fn = (inner as Record<EmbedName, Embed>)[name];
  return (originals.get(fn) ?? fn).call(inner, arg) as Promise<T>;
}

const loader = Module as unknown as { _load: Load };

/** Wraps the Embeddings classes of every loaded CommonJS module, and of every one required from now on. */
export function startEmbeddingsHook(): void {
  for (const m of Object.values(require.cache)) if (m) scanExports(m.exports);
  if (shared.hook) return;
  const wrapped = loader._load;
  const wrapper: Load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
    const exports = wrapped.call(this, request, parent, isMain);
    if (installedVcr()) scanExports(exports);
    return exports;
  };
  loader._load = wrapper;
  shared.hook = { wrapper, wrapped };
}

/**
 * Takes the wrapper out again, unless something wrapped `Module._load` after us (a mocking
 * library): then ours stays, idle (it scans only while a Vcr is installed), so theirs keeps working.
 */
export function stopEmbeddingsHook(): void {
  if (!shared.hook || loader._load !== shared.hook.wrapper) return;
  loader._load = shared.hook.wrapped;
  shared.hook = undefined;
}

/**
 * Considers `exports` and its own data properties. Accessors are skipped: a getter may load a
 * module lazily (a side effect of our looking), and a class re-exported through a getter is
 * also a data property of the module that defines it.
 */
export function scanExports(exports: unknown): void {
  if (exports === null || (typeof exports !== "object" && typeof exports !== "function") || scanned.has(exports as object)) return;
  scanned.add(exports as object);
  let descriptors: PropertyDescriptor[];
  try {
    consider(exports); // module.exports = SomeEmbeddings
    descriptors = Object.values(Object.getOwnPropertyDescriptors(exports));
  } catch {
    return; // a Proxy that refuses: not a module of ours
  }
  for (const d of descriptors) {
    try {
      if ("value" in d) consider(d.value);
    } catch {
      // a Proxy whose traps throw: not a class of ours
    }
  }
}

/** A class (or an instance: `export const embeddings = new MyEmbeddings()` exports no class) that extends a copy of core's `Embeddings`. */
function consider(value: unknown): void {
  let proto: object;
  if (typeof value === "function" && typeof value.prototype === "object" && value.prototype !== null) proto = value.prototype as object;
  else if (typeof value === "object" && value !== null) proto = Object.getPrototypeOf(value) as object;
  else return;
  if (proto === null) return;
  const base = [...bases].find((b) => Object.prototype.isPrototypeOf.call(b.prototype, proto));
  if (!base) return;
  for (let p: object | null = proto; p && p !== base.prototype; p = Object.getPrototypeOf(p) as object | null) wrapPrototype(p);
}

function wrapPrototype(proto: object): void {
  if (wrappedPrototypes.has(proto)) return;
  wrappedPrototypes.add(proto);
  for (const name of NAMES) {
    const own = Object.getOwnPropertyDescriptor(proto, name);
    if (!own || typeof own.value !== "function") continue;
    const original = own.value as Embed;
    const wrapped: Embed = function (this: object, arg: unknown) {
      const vcr = installedVcr();
      if (!vcr || (this as Record<EmbedName, unknown>)[name] !== wrapped || isWrapper(this)) return original.call(this, arg);
      return recorded(vcr, this)[name](arg as never);
    };
    originals.set(wrapped, original);
    Object.defineProperty(proto, name, { ...own, value: wrapped });
  }
}


function recorded(vcr: NonNullable<ReturnType<typeof installedVcr>>, instance: object) {
  const known = byInstance.get(instance);
  if (known && known.vcr === vcr) return known.wrapper;
  const wrapper = vcr.embeddings(instance);
  byInstance.set(instance, { vcr, wrapper });
  return wrapper;
}

function isWrapper(instance: object): boolean {
  const inner = (instance as { underlyingEmbeddings?: unknown }).underlyingEmbeddings;
  return typeof inner === "object" && inner !== null;
}
