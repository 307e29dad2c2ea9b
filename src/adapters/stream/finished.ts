/**
 * Whether a recorded stream says it ended: a provider's last event carries a finish reason, and
 * LangChain keeps it on a chunk (OpenAI, Groq, Mistral: `finish_reason`; the Responses API:
 * `status`; Anthropic: `stop_reason`; Google: `finishReason`; Bedrock: `stopReason`; Ollama:
 * `done_reason` / `done`), on the chunk's generation info, its message's `response_metadata` or `additional_kwargs`, or an object
 * there (Bedrock: `response_metadata.messageStop.stopReason`). A stream a provider or a proxy closed cleanly before its end (no
 * `[DONE]`, no last event) is taken as whole by the client, and its recording would replay the
 * cut answer in every run: the recorder says so (`cutStreamWarning`). A provider whose stream
 * carries none of these is only told once per fixture it records.
 */
import { FINISH_REASON_KEYS as REASONS } from "../../kinds/model";
import type { StoredChunk } from "./chunks";

const ENDED_STATUS: ReadonlySet<unknown> = new Set(["completed", "incomplete"]);

/** Whether `fields`, or an object among them (Bedrock's `messageStop: { stopReason }`), holds a finish reason. */
function says(fields: unknown, nested = true): boolean {
  if (typeof fields !== "object" || fields === null) return false;
  const f = fields as Record<string, unknown>;
  if (REASONS.some((k) => typeof f[k] === "string" && f[k] !== "") || f.done === true || ENDED_STATUS.has(f.status)) return true;
  return nested && Object.values(f).some((v) => !Array.isArray(v) && says(v, false));
}

export function streamSaysEnded(chunks: readonly StoredChunk[]): boolean {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const c = chunks[i];
    const m = c.message as { response_metadata?: unknown; additional_kwargs?: unknown };
    if (says(c.generationInfo) || says(m.response_metadata) || says(m.additional_kwargs)) return true;
  }
  return false;
}

/** The warning for a recorded stream none of whose chunks says it ended, or undefined. */
export function cutStreamWarning(chunks: readonly StoredChunk[], describe: string, file: string): string | undefined {
  if (chunks.length === 0 || streamSaysEnded(chunks)) return undefined;
  const text = chunks.map((c) => (typeof c.text === "string" ? c.text : "")).join("");
  const tail = text.length > 60 ? "…" + text.slice(-60) : text;
  return (
    `recorded a chat stream from ${describe} whose chunks carry no finish reason (${REASONS.slice(0, 5).join(", ")}): ` +
    `the provider, or a proxy, may have closed it before the answer ended, and the client took it as whole.\n` +
    `  fixture:  ${file} (${chunks.length} chunk(s), ending ${JSON.stringify(tail)})\n` +
    `  Replay gives exactly these chunks, in every run. If the answer is cut short, delete the fixture and record it again; ` +
    `if this provider never sends a finish reason, nothing is wrong.\n`
  );
}
