/**
 * The model calls a tool body makes while it is recorded (a subagent behind deepagents' `task`
 * tool, an agent wrapped as a tool), and the texts it embeds (a retrieval tool's query). Its fixture replays its answer without running the body, so
 * those calls are never looked up on replay: a change to the subagent's prompt, model or tools
 * passes unnoticed, and `prune` counts their fixtures unused. Counted per body (an
 * AsyncLocalStorage store entered only around a body being recorded), so the recording can say so.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { processWide } from "../../processWide";
import { log } from "../../log";

interface Counter {
  models: number;
  /** Texts embedded (a retrieval tool's query): each is a lookup of its own. */
  embeddings: number;
}

const bodies = processWide("tools.innerCalls.v1", () => ({ als: new AsyncLocalStorage<Counter>(), running: 0 }));
/** Tools already noted in this process (once each). */
const noted = processWide("tools.innerCallsNoted.v1", () => new Set<string>());

/**
 * Runs a tool body being recorded, counting the model calls made inside it (`counter.models`).
 * The store is disabled again once no body is running: on Node 20 a store in use turns on promise
 * hooks for every promise of the process, which replays would pay for (BENCHMARKS.md).
 */
export async function countingModelCalls<T>(counter: Counter, body: () => Promise<T>): Promise<T> {
  bodies.running++;
  try {
    return await bodies.als.run(counter, body);
  } finally {
    if (--bodies.running === 0) bodies.als.disable();
  }
}

/** A model call (or an embedded text) is being looked up: counted for the tool body it runs in, if any. */
export function countModelCall(embedding = false): void {
  if (bodies.running === 0) return;
  const counter = bodies.als.getStore();
  if (counter && embedding) counter.embeddings++;
  else if (counter) counter.models++;
}

/** Says once per tool that its recorded body made model calls (or embedded texts) that replay will not look up. */
export function noteInnerModelCalls(tool: string, { models, embeddings }: Counter, file: string): void {
  if (models + embeddings === 0 || noted.has(tool)) return;
  noted.add(tool);
  const made = [models ? `${models} model call(s)` : "", embeddings ? `${embeddings} embedding lookup(s)` : ""].filter(Boolean).join(" and ");
  const what = [
    models ? "a subagent's prompt, model and tools" : "",
    embeddings ? "the text a retriever embeds, so a changed index still answers from the old one" : "",
  ];
  log.note(
    `tool ${JSON.stringify(tool)} made ${made} inside its body while it was recorded (fixture ${file}).\n` +
      `  Its replay returns the recorded answer without running the body, so those calls (${what.filter(Boolean).join("; ")}) are not looked up on replay: a change to them passes unnoticed, and prune counts their fixtures unused.\n` +
      `  To check them on every run, run this tool's body on replay with its inner tools still replayed: docs/tools-and-agents.md, "Tools that call a model".`,
  );
}
