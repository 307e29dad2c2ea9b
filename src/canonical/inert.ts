/**
 * Values dropped from the canonical request (from schema version 2): what only names the
 * JSON Schema dialect or restates a limit of the encoding, and so cannot change what the
 * model does. The rule: a value is dropped when removing it leaves every answer a model can
 * give equally valid. The list (docs/upgrading.md keeps it in step):
 * - `"$schema": "<dialect URI>"` anywhere in tool and response schemas (zod 3 writes
 *   draft-07, zod 4 draft 2020-12: the same tool must give the same key);
 * - `"maximum": 9007199254740991` and `"minimum": -9007199254740991` on `"type": "integer"`
 *   (zod 4 writes the safe-integer range for every `.int()`; zod 3 writes nothing).
 * Applied to the request's `tools` and `response_format`; a property NAMED `$schema` (an
 * object in `properties`) is a parameter, not a dialect, and stays.
 */
import { defineMember } from "./json";

const SAFE = Number.MAX_SAFE_INTEGER;

export function dropInert(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropInert);
  if (value === null || typeof value !== "object") return value;
  const src = value as Record<string, unknown>;
  const integer = src.type === "integer";
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === "$schema" && typeof v === "string") continue;
    if (integer && ((k === "maximum" && v === SAFE) || (k === "minimum" && v === -SAFE))) continue;
    defineMember(
      out,
      k,
      k === "properties" && v !== null && typeof v === "object" && !Array.isArray(v) ? propertiesOf(v as Record<string, unknown>) : dropInert(v),
    );
  }
  return out;
}

/** A schema's `properties`: each member is a parameter's schema, whatever its name. */
function propertiesOf(props: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) defineMember(out, k, dropInert(v));
  return out;
}

/** The members of a canonical model request that hold schemas. */
export const SCHEMA_MEMBERS = ["tools", "response_format"] as const;

/** Drops the inert values of a canonical model request's schema members, in place. */
export function dropInertMembers(request: Record<string, unknown>): Record<string, unknown> {
  for (const k of SCHEMA_MEMBERS) if (request[k] !== undefined) request[k] = dropInert(request[k]);
  return request;
}
