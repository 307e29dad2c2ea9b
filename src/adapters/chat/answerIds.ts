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
import { currentScope } from "../../scope";

/**
 * Whether a call runs in a LangGraph node, from the options its `generate()` got (LangGraph's
 * config: `metadata.langgraph_node`, the task's `configurable.checkpoint_ns`) or, for a stream,
 * its run's metadata: property reads, no lookup of the running config (a replay's hot path).
 */
export function inGraphNode(options: unknown): boolean {
  const o = options as { metadata?: { langgraph_node?: unknown }; configurable?: { checkpoint_ns?: unknown } } | undefined;
  if (o?.metadata?.langgraph_node !== undefined) return true;
  const ns = o?.configurable?.checkpoint_ns;
  return typeof ns === "string" && ns !== "";
}

/** Which answer from fixture `file` this is in the current test: 1 for the first (a recording counts as one), and for a call outside a graph. */
export function answerNumber(file: string, inGraph: boolean): number {
  return inGraph ? currentScope().nextOccurrence(`answer\u0000${file}`) : 1;
}

/** The id a message loaded from a fixture has as answer `n` of it in a test: its own, then `<id>-2`, `<id>-3`, … */
export function answerId(id: unknown, n: number): unknown {
  return n > 1 && typeof id === "string" && id !== "" ? `${id}-${n}` : id;
}
