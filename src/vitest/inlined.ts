/**
 * LangChain packages that vitest runs copies of its own of, in the main process, per project:
 * - inlined (`server.deps.inline`, into which vitest folds `ssr.noExternal`);
 * - bundled by its dependency optimizer (`deps.optimizer.<environment>.include`): the bundle
 *   of `@langchain/openai` or `langchain` carries a copy of @langchain/core of its own (measured:
 *   a streamed ChatOpenAI with `cache: vcr.cache` answered live under replay_only, 1 request, the
 *   summary all zero; an agent's tool body ran on replay).
 * Those copies are apart from the ones Node loads, which are the ones `vcr.install()` patches and
 * wraps (measured: a ChatOpenAI with no cache, inlined with `inline: [/@langchain/]`, 1 live call
 * per run under replay_only). What is found goes to the project's test processes in its `env`,
 * where install() refuses it (`install/vitestInlined.ts`).
 */
import * as path from "node:path";
import { CORE_USERS, KNOWN_INTEGRATIONS } from "../install/knownPackages";
import { packageDirs } from "../install/packageDirs";
import { INLINED_ENV, type Inlined } from "../install/vitestInlined";

/** The packages whose inlined copy install() cannot reach: core (every model) and the integrations exporting Embeddings classes. */
const REACHED = ["@langchain/core", ...KNOWN_INTEGRATIONS];

interface Optimizer {
  enabled?: boolean;
  include?: unknown;
}
/** What is read of a project's resolved config. */
export interface ProjectConfigLike {
  name?: string;
  root?: string;
  env?: Record<string, string>;
  server?: { deps?: { inline?: unknown } };
  /** The optimizer's keys are vitest's environments: `ssr`, `client` (vitest 4; `web` before). */
  deps?: { moduleDirectories?: unknown; optimizer?: Record<string, Optimizer | undefined> };
}

/**
 * Hands what vitest inlines or bundles of LangChain in this project to its test processes, through
 * `config.env`: set on every project, to nothing found too, since the root config's `env` reaches
 * every project's workers and a project's own overrides it.
 */
export function noteInlined(config: ProjectConfigLike | undefined): void {
  if (!config || noted.has(config)) return; // the plugin's hook and its reporter both hand every project over
  noted.add(config);
  const found: Inlined = bundledCore(config) ?? inlinedIn(config) ?? { names: [], where: "", fix: "" };
  (config.env ??= {})[INLINED_ENV] = JSON.stringify(found);
}

const noted = new WeakSet<ProjectConfigLike>();

function projectName(config: ProjectConfigLike): string {
  return config.name ? ` of vitest project ${JSON.stringify(config.name)}` : "";
}

/** The LangChain packages `server.deps.inline` inlines, matched against where they are installed as vitest matches module ids. */
export function inlinedIn(config: ProjectConfigLike): Inlined | undefined {
  const inline = config.server?.deps?.inline;
  if (inline !== true && !Array.isArray(inline)) return undefined;
  const dirs = Array.isArray(config.deps?.moduleDirectories) ? (config.deps.moduleDirectories as string[]) : ["/node_modules/"];
  const names = REACHED.filter((name) =>
    packageDirs(name, { cwd: config.root }).some((dir) => {
      if (inline === true) return true;
      const file = path.join(dir, "dist", "index.js").split(path.sep).join("/");
      return inline.some((p) =>
        typeof p === "string"
          ? dirs.some((d) => file.includes(path.posix.join(d, p)))
          : p instanceof RegExp && new RegExp(p.source, p.flags.replace("g", "")).test(file),
      );
    }),
  );
  return names.length
    ? {
        names,
        where: `server.deps.inline${projectName(config)}`,
        fix: `leave LangChain's packages out of server.deps.inline (narrow a pattern such as /@langchain/ that matches them)`,
      }
    : undefined;
}

/** A LangChain package other than core that the dependency optimizer bundles: its bundle holds a copy of core of its own. */
export function bundledCore(config: ProjectConfigLike): Inlined | undefined {
  for (const [kind, optimizer] of Object.entries(config.deps?.optimizer ?? {})) {
    if (!optimizer?.enabled || !Array.isArray(optimizer.include)) continue;
    const bundled = [...new Set(optimizer.include.filter((p): p is string => typeof p === "string" && isLangchainPackage(p) && p !== "@langchain/core"))];
    if (bundled.length)
      return {
        names: ["@langchain/core", ...bundled],
        where: `deps.optimizer.${kind}.include${projectName(config)}, whose bundles hold a copy of @langchain/core`,
        fix: `remove ${bundled.map((b) => JSON.stringify(b)).join(", ")} from deps.optimizer.${kind}.include`,
      };
  }
  return undefined;
}

const LANGCHAIN = new Set<string>([...REACHED, ...CORE_USERS]);

function isLangchainPackage(specifier: string): boolean {
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
  return LANGCHAIN.has(name) || name.startsWith("@langchain/");
}
