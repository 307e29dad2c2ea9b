/**
 * LangChain packages that vitest inlines (`server.deps.inline`, or `ssr.noExternal`, which vitest
 * folds into it): vitest then runs a copy of its own of each, apart from the one Node loads, which
 * is the one `vcr.install()` patches and wraps. An inlined @langchain/core's models, and an inlined
 * integration's Embeddings classes, would call the provider unrecorded, under replay_only too
 * (measured: a ChatOpenAI with no cache, inlined with `inline: [/@langchain/]`, 0 fixtures and 1
 * live call per run, the summary all zero). The plugin finds them in the resolved config and hands
 * them to the test processes in an environment variable; install() refuses them.
 */
import { VcrConfigError } from "../errors";
import { KNOWN_INTEGRATIONS } from "../install/knownPackages";

export const INLINED_ENV = "LANGCHAIN_VCR_VITEST_INLINED";

/** The packages whose inlined copy install() cannot reach: core (every model) and the integrations exporting Embeddings classes. */
const REACHED = ["@langchain/core", ...KNOWN_INTEGRATIONS];

/** Those of REACHED that `inline` (vitest's `server.deps.inline`: `true`, or strings and RegExps matched as vitest does) inlines. */
export function inlinedLangchain(inline: unknown): string[] {
  if (inline === true) return [...REACHED];
  if (!Array.isArray(inline)) return [];
  return REACHED.filter((name) => {
    const file = `/project/node_modules/${name}/dist/index.js`;
    return inline.some((p) =>
      typeof p === "string" ? file.includes(`/node_modules/${p}`) : p instanceof RegExp && new RegExp(p.source, p.flags.replace("g", "")).test(file),
    );
  });
}

/**
 * In a test process, at install(): an inlined @langchain/core is a VcrConfigError (no model of it
 * can be recorded); inlined integrations are a warning, once per process (their chat models extend
 * the core install() patched and are recorded; their Embeddings classes are not reached).
 */
export function checkInlined(warnOnce: (text: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  const names = (env[INLINED_ENV] ?? "").split(",").filter(Boolean);
  if (names.length === 0) return;
  const where = `server.deps.inline in vitest.config (${names.join(", ")})`;
  const fix = `  Fix it: leave LangChain's packages out of server.deps.inline (a pattern such as /@langchain/ matches them all).`;
  if (names.includes("@langchain/core"))
    throw new VcrConfigError(
      `vcr.install() cannot reach the @langchain/core that vitest inlines: ${where}.\n` +
        `  vitest runs its own copy of an inlined package, apart from the one install() patches, so every model would call the provider unrecorded, under replay_only too.\n` +
        `  Nearest: none; explicit wiring (cache: vcr.cache) fails with a VcrConfigError at the call on an inlined core.\n` +
        fix,
    );
  warnOnce(
    `vcr.install() cannot reach the Embeddings classes of what vitest inlines: ${where}.\n` +
      `  vitest runs its own copy of an inlined package, apart from the one install() wraps, so their embeddings call the provider unrecorded, under replay_only too; their chat models are recorded as usual.\n` +
      `  Nearest: explicit wiring records them: vcr.embeddings(new OpenAIEmbeddings(…)).\n` +
      fix,
  );
}
