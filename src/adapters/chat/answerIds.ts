/**
 * A fixture's message id, once per test. A live provider gives every answer an id of its own;
 * a fixture holds one. When a test gets two answers from one fixture — the identical request
 * made twice (a LangGraph `Send` to the same topic twice, a retry), or made at once by two
 * callers that shared one live call while recording — both carried the same id, and LangGraph's
 * messages reducer merged them into one message, which the live run never did. The first answer
 * from a fixture in a test keeps its recorded id; the n-th gets `<id>-n`. Counted per test, by
 * its scope's call numbering (`withVcr` scopes inside it share it), and only for calls a LangGraph
 * node makes: outside a graph no reducer merges by id, and a test that asks twice and compares the
 * two answers (or records and replays in one test) keeps getting the recorded id.
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { currentScope } from "../../scope";

/**
 * Which answer from fixture `file` this is in the current test's LangGraph runs: 1 for the first
 * (a recording counts as one), and outside a graph. `runMetadata`: the call's run manager's
 * metadata, for a stream (whose generator runs outside the config LangChain keeps for a call).
 */
export function answerNumber(file: string, runMetadata?: unknown): number {
  const node = (runMetadata as { langgraph_node?: unknown } | undefined)?.langgraph_node;
  if (node === undefined && !inGraphNode(AsyncLocalStorageProviderSingleton.getRunnableConfig())) return 1;
  return currentScope().nextOccurrence(`answer\u0000${file}`);
}

/** Whether a call runs in a LangGraph node (its config names the node, or the task's checkpoint namespace). */
function inGraphNode(config: unknown): boolean {
  const c = config as { metadata?: { langgraph_node?: unknown }; configurable?: { checkpoint_ns?: unknown } } | undefined;
  return c?.metadata?.langgraph_node !== undefined || (typeof c?.configurable?.checkpoint_ns === "string" && c.configurable.checkpoint_ns !== "");
}

/** The id a message loaded from a fixture has as answer `n` of it in a test: its own, then `<id>-2`, `<id>-3`, … */
export function answerId(id: unknown, n: number): unknown {
  return n > 1 && typeof id === "string" && id !== "" ? `${id}-${n}` : id;
}
