/** The record/replay modes, as data: the one table that says what each mode does. */

export const VCR_MODES = ["record_or_replay", "replay_only", "record_always", "bypass"] as const;
export type VcrMode = (typeof VCR_MODES)[number];

export const VCR_TOOL_MODES = ["replay", "execute"] as const;
export type VcrToolMode = (typeof VCR_TOOL_MODES)[number];

export interface ModePolicy {
  /** Look for a recorded fixture before calling the real thing. */
  readonly readsFixtures: boolean;
  /** What a miss does: call the real thing, or fail. */
  readonly onMiss: "call" | "fail";
  /** Whether a live result is written, and whether an existing file may be replaced. */
  readonly writes: "never" | "new_only" | "always";
}

export const MODE_POLICY: Readonly<Record<VcrMode, ModePolicy>> = {
  record_or_replay: { readsFixtures: true, onMiss: "call", writes: "new_only" },
  replay_only: { readsFixtures: true, onMiss: "fail", writes: "never" },
  record_always: { readsFixtures: false, onMiss: "call", writes: "always" },
  bypass: { readsFixtures: false, onMiss: "call", writes: "never" },
};

export function isVcrMode(v: unknown): v is VcrMode {
  return typeof v === "string" && (VCR_MODES as readonly string[]).includes(v);
}

export function isVcrToolMode(v: unknown): v is VcrToolMode {
  return typeof v === "string" && (VCR_TOOL_MODES as readonly string[]).includes(v);
}
