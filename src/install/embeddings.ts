/**
 * `vcr.install()` for embeddings. Each integration defines `embedQuery` / `embedDocuments` on
 * its own class (core's `Embeddings` declares them abstract), and every instance sets its
 * fields in its constructor, so there is no base method to wrap and no construction to see.
 * What can be reached is the classes: while a Vcr is installed, every class that extends a
 * copy of core's `Embeddings` and is exported by a CommonJS module (itself, or an instance
 * of it) — loaded before
 * `install()` (found in `require.cache`) or after it (seen as `require` returns it:
 * `requireHook.ts`) — gets its own `embedQuery` / `embedDocuments` (and those of its parent
 * classes) wrapped once.
 * A wrapped method of an instance, while a Vcr is installed, goes through
 * `vcr.embeddings(instance)`: the same keys as an explicit wrapper.
 *
 * Left alone: everything inside the live call a `VcrEmbeddings` makes to the embeddings it
 * wraps (`liveEmbed`: a subclass's method calling `super.embedQuery()`, an `embedDocuments`
 * built on `embedQuery`), and a wrapper holding `underlyingEmbeddings` (`VcrEmbeddings`,
 * `CacheBackedEmbeddings`: the embeddings inside are recorded). A subclass whose own method
 * was not wrapped (no module exports it) is recorded at the first wrapped method its call
 * reaches (its `super` call), keyed on the arguments that call receives.
 *
 * ES modules and jest's module registry have no such cache: there `integrations.ts` loads the
 * known integrations and hands their exports to `scanExports`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { installedVcr } from "../internals/state";
import { processWide } from "../processWide";
import { warnIfUninstalledInThisFile } from "./afterUninstall";
import { isTestDouble } from "./testDouble";
import type { ModuleFacts } from "./ownCode";

type EmbedName = "embedQuery" | "embedDocuments";
type Embed = (this: object, arg: unknown) => Promise<unknown>;

const NAMES: readonly EmbedName[] = ["embedQuery", "embedDocuments"];
/**
 * The prototype of `Embeddings` in each copy of core. Weak: every jest registry reset loads a
 * fresh copy of core, and a strong reference would keep each old copy alive. Shared by every copy
 * of this module (`processWide`): a copy of core is patched once, by whichever build of
 * langchain-vcr comes first, and the other's scan must know its Embeddings too (measured: under
 * jest 29 the ESM build patched core first, and the jest setup file's scan then wrapped nothing).
 */
const basePrototypes = processWide("installEmbeddings.bases.v1", () => new WeakSet<object>());
const scanned = new WeakSet<object>();

/**
 * What every copy of this module in the process shares (two installed copies of langchain-vcr
 * scan the same integration classes): a prototype is wrapped once, by whichever copy comes
 * first, and a live call entered by either copy is seen by both copies' wrappers.
 */
interface Shared {
  /** A wrapped method → the integration's own. */
  originals: WeakMap<Embed, Embed>;
  wrappedPrototypes: WeakSet<object>;
  /** The instance whose live call (`liveEmbed`) is running here: its wrapped methods pass through. Entered only when recording. */
  insideLiveCall: AsyncLocalStorage<object>;
  /**
   * A call recorded at a wrapped method that is not the instance's most derived one (an unwrapped
   * subclass override reached it through `super`): its live call is that method's original, so the
   * override's own work is not done twice.
   */
  recordedFrom: AsyncLocalStorage<{ instance: object; name: EmbedName; original: Embed }>;
}
const { originals, wrappedPrototypes, insideLiveCall, recordedFrom } = processWide<Shared>("installEmbeddings.v1", () => ({
  originals: new WeakMap(),
  wrappedPrototypes: new WeakSet(),
  insideLiveCall: new AsyncLocalStorage(),
  recordedFrom: new AsyncLocalStorage(),
}));

export function noteEmbeddingsClass(base: { prototype: object }): void {
  basePrototypes.add(base.prototype);
}

/** Calls the integration's own `name` of `inner`, never the install hook (used by VcrEmbeddings for its live call). */
export function liveEmbed<T>(inner: object, name: EmbedName, arg: unknown): Promise<T> {
  const from = recordedFrom.getStore();
  const top = (inner as Record<EmbedName, Embed>)[name];
  const fn = from && from.instance === inner && from.name === name ? from.original : (originals.get(top) ?? top);
  return insideLiveCall.run(inner, () => fn.call(inner, arg)) as Promise<T>;
}

/**
 * Considers `exports` and its own data properties. Accessors are skipped in packages: a getter
 * may load a module lazily (a side effect of our looking), and a class a package re-exports
 * through a getter is also a data property of the module that defines it. A module of the
 * project (`facts().ownCode`): its enumerable getters are read too, since tsx, esbuild and SWC
 * compile every export of a module to one (before, a project's own exported Embeddings class run
 * under tsx answered live under replay_only). `facts` is asked only for exports not yet scanned.
 *
 * The exports of a module still loading (a require cycle hands them out before its body has run
 * to the end: tsc assigns an export once its class is defined, esbuild's getter throws until then)
 * are left alone, not marked: the require that finishes loading it passes here too, with all of
 * them. Skipping them outright keeps a barrel in a cycle from being read again on each of its
 * modules' requires (a 3,000-module barrel loaded in 56 s when it was).
 */
export function scanExports(exports: unknown, facts: () => ModuleFacts = () => ({ ownCode: false, loaded: true })): void {
  if (exports === null || (typeof exports !== "object" && typeof exports !== "function") || scanned.has(exports as object)) return;
  const { ownCode, loaded } = facts();
  if (!loaded) return;
  scanned.add(exports as object); // first: a getter that requires this module again does not scan it again meanwhile
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
      else if (ownCode && d.enumerable && d.get) consider(d.get.call(exports));
    } catch {
      // a Proxy whose traps throw, a getter that throws: not a class of ours
    }
  }
}

/** A class (or an instance: `export const embeddings = new MyEmbeddings()` exports no class) that extends a copy of core's `Embeddings`. */
function consider(value: unknown): void {
  belowBase(value)?.forEach(wrapPrototype);
}

/** The prototypes from `value`'s own down to a copy of core's `Embeddings` (not included), when it is such a class or instance. */
function belowBase(value: unknown): object[] | undefined {
  let proto: object;
  if (typeof value === "function" && typeof value.prototype === "object" && value.prototype !== null) proto = value.prototype as object;
  else if (typeof value === "object" && value !== null) proto = Object.getPrototypeOf(value) as object;
  else return undefined;
  const below: object[] = [];
  for (let p: object | null = proto; p; p = Object.getPrototypeOf(p) as object | null) {
    if (basePrototypes.has(p)) return below;
    below.push(p);
  }
  return undefined;
}

/** The prototypes `scanExports` wraps for a package module's exports (its values, not its getters), or none. */
export function embeddingsPrototypes(exports: unknown): Set<object> {
  const found = new Set<object>();
  if (exports === null || (typeof exports !== "object" && typeof exports !== "function")) return found;
  try {
    for (const value of [exports, ...Object.values(Object.getOwnPropertyDescriptors(exports)).map((d) => ("value" in d ? d.value : undefined))])
      belowBase(value)?.forEach((p) => found.add(p));
  } catch {
    // a Proxy that refuses: none
  }
  return found;
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
      // recorded by the wrapper making the call; a test double calls no provider (install/testDouble.ts)
      const passThrough = insideLiveCall.getStore() === this || isWrapper(this) || isTestDouble(this);
      if (!vcr && !passThrough) warnIfUninstalledInThisFile("embeddings", this.constructor.name);
      if (!vcr || passThrough) return original.call(this, arg);
      const record = () => recorded(vcr, this)[name](arg as never);
      return (this as Record<EmbedName, unknown>)[name] === wrapped ? record() : recordedFrom.run({ instance: this, name, original }, record);
    };
    originals.set(wrapped, original);
    Object.defineProperty(proto, name, { ...own, value: wrapped });
  }
}

/** One VcrEmbeddings per instance and installed Vcr. */
const byInstance = new WeakMap<object, { vcr: object; wrapper: ReturnType<NonNullable<ReturnType<typeof installedVcr>>["embeddings"]> }>();

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
