/**
 * Test doubles `vcr.install()` leaves alone: `@langchain/core/utils/testing`'s FakeChatModel,
 * FakeStreamingChatModel, FakeListChatModel, FakeLLM, FakeStreamingLLM, FakeEmbeddings and
 * SyntheticEmbeddings, langchain's FakeToolCallingModel, and a class of the test's own built the
 * same way. They call no provider: recorded, a FakeListChatModel would replay its old answer after
 * its `responses` changed, and one made to throw (`thrownErrorString`) could never be recorded, so
 * the failure path a test builds it for would miss under `replay_only`. A model given
 * `cache: vcr.cache` explicitly is still recorded: the test asked for it.
 *
 * A double is a class (or a parent class, below core's) whose name starts with `Fake` or
 * `Synthetic`, or a model whose `_llmType()` is `fake` or `fake-list` (what core's return).
 */
const DOUBLE_NAME = /^(Fake|Synthetic)[A-Z0-9_]/;
const DOUBLE_TYPES: ReadonlySet<string> = new Set(["fake", "fake-list"]);

/** Per class: whether its instances are test doubles (the answer never changes for a class). */
const known = new WeakMap<object, boolean>();

export function isTestDouble(instance: object): boolean {
  const cls = (instance as { constructor?: unknown }).constructor;
  if (typeof cls !== "function") return false;
  let double = known.get(cls);
  if (double === undefined) known.set(cls, (double = namedDouble(Object.getPrototypeOf(instance) as object | null) || typedDouble(instance)));
  return double;
}

function namedDouble(proto: object | null): boolean {
  for (let p = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    const name = (p as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && DOUBLE_NAME.test(name)) return true;
  }
  return false;
}

function typedDouble(instance: object): boolean {
  const llmType = (instance as { _llmType?: () => unknown })._llmType;
  if (typeof llmType !== "function") return false;
  try {
    const type = llmType.call(instance);
    return typeof type === "string" && DOUBLE_TYPES.has(type);
  } catch {
    return false;
  }
}
