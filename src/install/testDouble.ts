/**
 * Test doubles `vcr.install()` leaves alone: `@langchain/core/utils/testing`'s FakeChatModel,
 * FakeStreamingChatModel, FakeListChatModel, FakeLLM, FakeStreamingLLM, FakeEmbeddings and
 * SyntheticEmbeddings, langchain's FakeToolCallingModel, and a double of the test's own built the
 * same way. They call no provider: recorded, a FakeListChatModel would replay its old answer after
 * its `responses` changed, and one made to throw (`thrownErrorString`) could never be recorded, so
 * the failure path a test builds it for would miss under `replay_only`. A model given
 * `cache: vcr.cache` explicitly is still recorded: the test asked for it.
 *
 * What decides is the class that extends core's base class directly (`BaseChatModel`,
 * `SimpleChatModel`, `BaseLLM`, `LLM`, `Embeddings`): a double when its name starts with `Fake`,
 * `Synthetic` or `Mock`. So a subclass of a double is one too, and a provider's subclass is never
 * one, whatever its own name (`class FakeClockChatOpenAI extends ChatOpenAI` still records: leaving
 * it alone would send its calls live, unrecorded).
 */
const DOUBLE_NAME = /^(Fake|Synthetic|Mock)[A-Z0-9_]/;
const CORE_BASES: ReadonlySet<string> = new Set(["BaseChatModel", "SimpleChatModel", "BaseLLM", "LLM", "Embeddings"]);

/** Per class: whether its instances are test doubles (the answer never changes for a class). */
const known = new WeakMap<object, boolean>();

export function isTestDouble(instance: object): boolean {
  const cls = (instance as { constructor?: unknown }).constructor;
  if (typeof cls !== "function") return false;
  let double = known.get(cls);
  if (double === undefined) known.set(cls, (double = DOUBLE_NAME.test(topClassName(cls) ?? "")));
  return double;
}

/** The name of the class in `cls`'s chain that extends one of core's base classes directly, if any. */
function topClassName(cls: object): string | undefined {
  for (let c: unknown = cls; typeof c === "function"; c = Object.getPrototypeOf(c)) {
    const parent = Object.getPrototypeOf(c) as { name?: unknown } | null;
    if (typeof parent?.name === "string" && CORE_BASES.has(parent.name)) return (c as { name: string }).name;
  }
  return undefined;
}
