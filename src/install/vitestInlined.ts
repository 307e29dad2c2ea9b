/**
 * In a vitest test process: the LangChain packages the langchain-vcr plugin found that vitest
 * runs copies of its own of (inlined, or bundled by its dependency optimizer: `vitest/inlined.ts`),
 * apart from the ones Node loads, which are the ones `vcr.install()` patches and wraps. The plugin
 * hands them to the project's test processes in an environment variable; the plugin's setup file
 * takes it (`takeInlined`, so a process a test spawns does not inherit it) before install() runs.
 */
import { VcrConfigError } from "../errors";
import { processWide } from "../processWide";
import { INTERNAL_ENV_PREFIX } from "../internalEnv";

export const INLINED_ENV = `${INTERNAL_ENV_PREFIX}VITEST_INLINED`;

/** What the plugin found for this process's project: the packages, the setting that does it, and what to change. */
export interface Inlined {
  names: string[];
  where: string;
  fix: string;
}

const taken = processWide("vitestInlined.v1", () => ({ inlined: undefined as Inlined | undefined, warned: false }));

/** The plugin's setup file: takes what the plugin found out of the environment. */
export function takeInlined(env: NodeJS.ProcessEnv = process.env): void {
  const text = env[INLINED_ENV];
  if (text === undefined) return;
  delete env[INLINED_ENV];
  try {
    taken.inlined = JSON.parse(text) as Inlined;
  } catch {
    // not the plugin's: nothing known
  }
}

/**
 * At install(): an inlined or bundled @langchain/core (a package bundled with its own copy of
 * core counts: `vitest/inlined.ts`) is a VcrConfigError, since no model on it can be recorded;
 * inlined integrations are a warning, once per process (their chat models extend the core
 * install() patched, and are recorded; their Embeddings classes are not reached).
 */
export function checkInlined(warn: (text: string) => void): void {
  const found = taken.inlined;
  if (!found || found.names.length === 0) return;
  const where = `${found.where} (${found.names.join(", ")})`;
  const fix = `  Fix it: ${found.fix}.`;
  if (found.names.includes("@langchain/core"))
    throw new VcrConfigError(
      `vcr.install() cannot reach the copy of @langchain/core that vitest makes: ${where}.\n` +
        `  vitest runs a copy of its own of what it inlines or bundles, apart from the @langchain/core install() patches, so every model on it would call the provider unrecorded, under replay_only too.\n` +
        `  Nearest: none; explicit wiring (cache: vcr.cache) fails with a VcrConfigError at the call on such a copy.\n` +
        fix,
    );
  if (taken.warned) return;
  taken.warned = true;
  warn(
    `vcr.install() cannot reach the Embeddings classes of what vitest inlines: ${where}.\n` +
      `  vitest runs a copy of its own of an inlined package, apart from the one install() wraps, so their embeddings call the provider unrecorded, under replay_only too; their chat models are recorded as usual.\n` +
      `  Nearest: explicit wiring records them: vcr.embeddings(new OpenAIEmbeddings(…)).\n` +
      fix,
  );
}
