/**
 * Requests a provider answers alike whose keys differ, because a client changed how it spells
 * them and fixtures were written under both. ChatAnthropic before @langchain/anthropic 1.4 sent
 * `thinking: {type: "disabled"}` (the API's default) on every call; later versions send nothing
 * unless thinking is set, so an upgrade missed every Anthropic fixture. Dropping the member from
 * the key (./absent.ts) would rename every fixture written with it: a schema version of its own,
 * with `migrate`. Until then the key keeps both spellings, and a lookup that finds no fixture
 * under its own tries the other before it misses (both ways: an upgrade and a downgrade). It
 * records under its own. Each entry is one client's (by its `_llmType()`): no other key moves.
 */
import { isDeepStrictEqual } from "node:util";

export const ALIKE_SPELLINGS: readonly { llmType: string; member: string; value: unknown; client: string }[] = [
  { llmType: "anthropic", member: "thinking", value: { type: "disabled" }, client: "ChatAnthropic (sent by @langchain/anthropic before 1.4)" },
];

/**
 * The request `model`'s call is also found under: `request` spelled the other way (the member
 * added, or taken away), or undefined when no entry is its client's (the request is not built
 * then). Asked on a miss only. One entry per client.
 */
export function otherSpelling(model: object, request: () => unknown): Record<string, unknown> | undefined {
  const type = (model as { _llmType?: () => unknown })._llmType;
  if (typeof type !== "function") return undefined;
  const llmType = type.call(model);
  const entry = ALIKE_SPELLINGS.find((s) => s.llmType === llmType);
  if (!entry) return undefined;
  const fields = request();
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return undefined;
  const { member, value } = entry;
  if (!Object.hasOwn(fields, member)) return { ...fields, [member]: value };
  if (!isDeepStrictEqual((fields as Record<string, unknown>)[member], value)) return undefined;
  const other: Record<string, unknown> = { ...fields };
  delete other[member];
  return other;
}
