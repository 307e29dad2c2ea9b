/**
 * The one rule for which optional members of a stored response are written (a format
 * decision, docs/upgrading.md "Format decisions"): a member is left out when it is
 * `undefined`, `null`, an empty array or an empty object, and written otherwise, an empty
 * string included. Replay rebuilds a left-out member as LangChain's own default (no id, no
 * tool calls, `{}` metadata), so leaving it out loses nothing. Chat generations, stream
 * chunks and tool messages all use it.
 */
export function isStoredMember(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}
