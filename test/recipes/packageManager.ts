/**
 * A recipe's commands as a user of each package manager types them: the README writes them for npm
 * (`npm install --save-dev …`, `npx …`, `node …`); `PACKAGE_MANAGER=pnpm` or `yarn` runs the same recipe
 * through that package manager instead (test/compat/package-managers.mjs, in CI: pnpm's isolated
 * node_modules and Yarn's Plug'n'Play, where `install()` once answered live).
 */
import type { PackageManager as PackageManagerName } from "../../src/diagnose/packageManager";
export const PACKAGE_MANAGERS: readonly PackageManagerName[] = ["npm", "pnpm", "yarn"];

export interface PackageManager {
  name: PackageManagerName;
  /** The documented `npm install` line, for this package manager, with `langchain-vcr` taken from the tarball. */
  install(line: string, tarball: string): string;
  /** The documented command (`npx x …` or `node …`) as this package manager runs it. */
  run(command: string): string;
  /** What this package manager needs in its environment to install from the npm registry alone, quietly. */
  env(registry: string): NodeJS.ProcessEnv;
}

const [NODE_MAJOR, NODE_MINOR] = process.versions.node.split(".").map(Number);
/**
 * vitest 5 needs Node 22.12; npm 11 picks vitest 4 on an older Node by `engines`, pnpm and yarn do not, and the
 * README says to install `vitest@4` there.
 */
const VITEST_BY_ENGINES = NODE_MAJOR > 22 || (NODE_MAJOR === 22 && NODE_MINOR >= 12);

/** Flags of a documented `npm install` line that the translations below mean (as `add --save-dev` / `add --dev`). */
const DEV_FLAGS = new Set(["--save-dev", "-D"]);

/** The package specs of an `npm install --save-dev …` line, langchain-vcr as `tarballSpec`; any other flag throws. */
function specs(line: string, tarballSpec: string, pinVitest: boolean): string[] {
  const words = line.trim().split(/\s+/);
  if (words[0] !== "npm" || !["install", "i"].includes(words[1])) throw new Error(`not an npm install line: ${line}`);
  const flags = words.slice(2).filter((w) => w.startsWith("-"));
  const unknown = flags.filter((f) => !DEV_FLAGS.has(f));
  if (unknown.length || !flags.length)
    throw new Error(`cannot translate "${line}": only npm install --save-dev <packages> is (flags: ${unknown.join(" ") || "none"})`);
  return words
    .slice(2)
    .filter((w) => !w.startsWith("-"))
    .map((w) => (w === "langchain-vcr" ? tarballSpec : pinVitest && w === "vitest" ? "vitest@4" : w));
}

/** `npx x …` → `<exec> x …`; `node …` → `<node>node …`; any other command throws. */
function runner(exec: string, node: string): (command: string) => string {
  return (command) => {
    if (command.startsWith("npx ")) return `${exec} ${command.slice(4)}`;
    if (command.startsWith("node ")) return `${node}${command}`;
    throw new Error(`cannot translate "${command}": only npx … and node … commands are`);
  };
}

export function packageManager(name: string | undefined): PackageManager {
  switch (name ?? "npm") {
    case "npm":
      return {
        name: "npm",
        install: (line, tarball) => {
          const words = line.split(/\s+/).map((w) => (w === "langchain-vcr" ? JSON.stringify(tarball) : w));
          return [...words, "--prefer-offline", "--no-audit", "--no-fund"].join(" ");
        },
        run: (command) => command,
        env: () => ({}),
      };
    case "pnpm":
      return {
        name: "pnpm",
        install: (line, tarball) => ["pnpm add --save-dev --prefer-offline", ...specs(line, JSON.stringify(tarball), !VITEST_BY_ENGINES)].join(" "),
        run: runner("pnpm exec", ""),
        // pnpm 11 and later fail an install whose dependencies' build scripts are not approved (esbuild under tsx,
        // @parcel/watcher under jest); no recipe needs those scripts: they are skipped without failing the install
        env: (registry) => ({ npm_config_registry: registry, npm_config_update_notifier: "false", pnpm_config_strict_dep_builds: "false" }),
      };
    case "yarn":
      return {
        name: "yarn",
        install: (line, tarball) => ["yarn add --dev", ...specs(line, JSON.stringify(`langchain-vcr@file:${tarball}`), !VITEST_BY_ENGINES)].join(" "),
        // under Plug'n'Play a plain `node` resolves nothing: `yarn node …` loads .pnp.cjs
        run: runner("yarn", "yarn "),
        env: (registry) => ({
          YARN_NPM_REGISTRY_SERVER: registry.replace(/\/$/, ""),
          YARN_ENABLE_TELEMETRY: "0",
          YARN_ENABLE_GLOBAL_CACHE: "true",
          YARN_ENABLE_IMMUTABLE_INSTALLS: "false",
          YARN_ENABLE_PROGRESS_BARS: "false",
          YARN_NODE_LINKER: "pnp",
        }),
      };
    default:
      throw new Error(`PACKAGE_MANAGER=${name}: expected one of ${PACKAGE_MANAGERS.join(", ")}`);
  }
}
