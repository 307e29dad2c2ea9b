// The README's recipes installed and run through pnpm and through Yarn (Plug'n'Play) instead of npm:
// .ci/run runs it after the recipes. Each package manager comes from the npm registry at the version
// pinned below, into a scratch directory outside the repository, put first on PATH; then
// `npm run test:recipes` runs with PACKAGE_MANAGER set (test/recipes/packageManager.ts turns the
// documented `npm install` and `npx` lines into `pnpm add` / `pnpm exec` and `yarn add` / `yarn …`).
//
//   node test/compat/package-managers.mjs          every package manager
//   node test/compat/package-managers.mjs yarn     one of them
//
// Why in CI: each lays packages out its own way (pnpm's isolated node_modules and store, Yarn's zip archives
// and .pnp.cjs), and install() must reach LangChain's classes in each; it once answered live under both
// (a pnpm workspace package with its own store, an ES-module test's embeddings under PnP: tested offline in
// the suite, test/integration/install.strictLayout.test.ts and install.scanOrder.test.ts). Here the
// README's own recipes, vitest-install among them, run as a user of each would install them.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Each package manager: its registry package (pinned, the newest when pinned, 2026-12-05) and the recipes it runs.
 * Not under Yarn's PnP: mocha 12 does not start there on Node 20 (its own ES modules fail before any test file
 * loads; docs/compatibility.md), and ts-jest/ts-node resolve TypeScript outside PnP's rules.
 */
const MANAGERS = {
  pnpm: { package: "pnpm@12.24.0", recipes: ["mocha-esm", "vitest", "vitest-install", "jest", "node-test-js"] },
  yarn: { package: "@yarnpkg/cli-dist@4.18.1", recipes: ["vitest", "vitest-install", "node-test-js"] },
};

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const names = process.argv[2] ? [process.argv[2]] : Object.keys(MANAGERS);
for (const name of names) {
  if (!MANAGERS[name]) {
    console.error(`package-managers: unknown package manager "${name}"; known: ${Object.keys(MANAGERS).join(", ")}`);
    process.exit(2);
  }
}

const dir = mkdtempSync(join(tmpdir(), "vcr-package-managers-"));
const results = [];
try {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "langchain-vcr-package-managers", private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, ...names.map((n) => MANAGERS[n].package)], {
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 5 * 60_000,
  });
  const bin = join(dir, "node_modules", ".bin");
  for (const name of names) {
    if (!existsSync(join(bin, name))) throw new Error(`${MANAGERS[name].package} installed no ${name} under ${bin}`);
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, PACKAGE_MANAGER: name, RECIPES: MANAGERS[name].recipes.join(",") };
    const version = execFileSync(join(bin, name), ["--version"], { encoding: "utf8", env, cwd: dir }).trim();
    const started = Date.now();
    console.log(`package-managers: npm run test:recipes through ${name} ${version} (${env.RECIPES})`);
    const out = spawnSync("npm", ["run", "test:recipes"], { cwd: root, env, stdio: "inherit", timeout: 20 * 60_000 });
    const ok = out.status === 0;
    results.push({ name: `${name} ${version}`, ok, seconds: Math.round((Date.now() - started) / 1000) });
    console.log(`package-managers: ${name}: ${ok ? "ok" : `FAILED (${out.status ?? out.signal})`}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const r of results) console.log(`package-managers: ${r.name}: ${r.ok ? "ok" : "FAILED"} (${r.seconds}s)`);
process.exit(results.length === names.length && results.every((r) => r.ok) ? 0 : 1);
