/**
 * langchain's `createAgent` names a `responseFormat` schema's tool `extract-<n>` when the schema has
 * no title, `n` from a counter in langchain's module: `toolStrategy(schema)` takes a number when it is
 * called (one per schema of a list), and a bare schema given as `responseFormat` takes one at each
 * model call. The counter lives as long as the module: a test file (jest's and vitest's module
 * registries), or a whole mocha or node:test process. The name is in the request's key, so a test's
 * fixtures depend on what ran before it: a `-t`/`--grep` run of a later test alone names it
 * otherwise and misses, and recording it so only moves the miss to the full run (user trial 51). A
 * title fixes the name. What a miss's hint says, and the warning a recording gives once per test.
 */
import { log } from "../log";
import { processWide } from "../processWide";

const COUNTED = /^extract-(\d+)$/;

export const COUNTED_NAME_FIX =
  `give the schema a title, which names the tool instead (zod 4: z.object({ … }).meta({ title: "weather_report" }); a JSON schema: "title"), ` +
  `then record the tests that use it again (docs/tools-and-agents.md, "createAgent with responseFormat")`;

/** Whether `value` is such a counted name. */
export function isCountedToolName(value: unknown): boolean {
  return typeof value === "string" && COUNTED.test(value);
}

/** The miss's hint when its differences are counted names only. */
export const COUNTED_NAME_HINT =
  `the differing names are ones langchain's createAgent gives a responseFormat schema without a title ("extract-<n>", n counted in the test file ` +
  `or process: at each toolStrategy() call, or at each model call for a bare schema), so they depend on what ran before this test (a -t or --grep ` +
  `filter, another order), and recording it again only moves the miss: ${COUNTED_NAME_FIX}`;

/** The tests (by title; "" outside one) already warned. */
const warned = processWide("diagnose.countedToolName.v1", () => new Set<string>());

/** A chat request being recorded: warns, once per test, when a tool it offers has a counted name past the first (`extract-2`, …). */
export function warnCountedToolName(request: unknown, test: string | undefined): void {
  if (warned.has(test ?? "")) return;
  const tools = (request as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return;
  for (const t of tools) {
    const name = (t as { name?: unknown })?.name ?? (t as { function?: { name?: unknown } })?.function?.name;
    const n = typeof name === "string" ? COUNTED.exec(name)?.[1] : undefined;
    if (n === undefined || Number(n) < 2) continue;
    warned.add(test ?? "");
    log.warn(
      `a chat request${test !== undefined ? ` of test ${JSON.stringify(test)}` : ""} offers the tool ${JSON.stringify(name)}: langchain's createAgent names a responseFormat ` +
        `schema without a title "extract-<n>", counting in the test file or process (at each toolStrategy() call, or at each model call for a bare schema), ` +
        `and the name is part of the fixture's key. A run of this test without what ran before it (a -t or --grep filter, another order) names it otherwise and misses.\n` +
        `  Fix: ${COUNTED_NAME_FIX}.\n`,
    );
    return;
  }
}
