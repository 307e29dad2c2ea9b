/**
 * The environment variables langchain-vcr sets itself, for the processes a run starts: each name
 * begins `_LANGCHAIN_VCR_`. Not `LANGCHAIN_`: LangSmith copies every `LANGCHAIN_*` and
 * `LANGSMITH_*` variable of the process into each trace's metadata, and these hold absolute paths,
 * process ids and the runner's arguments, new every run. The variables a user sets
 * (`LANGCHAIN_VCR_MODE`, …) keep their names.
 */
export const INTERNAL_ENV_PREFIX = "_LANGCHAIN_VCR_";

/** A variable of langchain-vcr's, set by a user (`LANGCHAIN_VCR_MODE`) or by langchain-vcr itself (`_LANGCHAIN_VCR_RUN_SHARE`). */
export function isVcrEnv(name: string): boolean {
  return name.startsWith("LANGCHAIN_VCR_") || name.startsWith(INTERNAL_ENV_PREFIX);
}

/** Set by the vitest plugin in vitest's main process, which its workers inherit: the run's config names the plugin. */
export const VITEST_PLUGIN_ENV = `${INTERNAL_ENV_PREFIX}VITEST_PLUGIN`;
