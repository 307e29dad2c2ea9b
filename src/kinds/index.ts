/**
 * The registry of fixture kinds. A new kind is one file exporting its `KindSpec` plus one
 * line here (see docs/architecture-kinds.md); replay, `validate`, the CLI and the
 * diagnostics all read a kind's rules from this table.
 */
import { chat } from "./chat";
import { chatStream } from "./chatStream";
import { embedding } from "./embedding";
import { llm } from "./llm";
import { moderation } from "./moderation";
import { tool } from "./tool";
import type { KindSpec } from "./types";
import { isRec } from "./text";

export const KINDS = {
  chat,
  chat_stream: chatStream,
  llm,
  embedding,
  tool,
  moderation,
} as const satisfies Record<string, KindSpec>;

export type FixtureKind = keyof typeof KINDS;
export const FIXTURE_KINDS = Object.keys(KINDS) as readonly FixtureKind[];

/** The spec of a kind named in a fixture file, or undefined for a name this version does not know. */
export function kindSpec(name: unknown): KindSpec | undefined {
  return typeof name === "string" && Object.hasOwn(KINDS, name) ? KINDS[name as FixtureKind] : undefined;
}

/** A one-line name of a fixture's request, as `diff` and `prune` list it (its kind's `title`). */
export function fixtureTitle(f: { kind: unknown; request: unknown }): string {
  const spec = kindSpec(f.kind);
  return spec ? spec.title(isRec(f.request) ? f.request : {}) : String(f.kind);
}

export type { KindSpec } from "./types";
