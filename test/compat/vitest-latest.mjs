// The vitest runner tests (test/runners/vitest.test.ts) against the newest vitest on the npm
// registry, when it is not the major this repository develops with (package.json). .ci/run
// runs it after the compatibility matrix; like the matrix it reads the registry, installs into
// a scratch directory outside the repository, and writes nothing inside it.
//
//   node test/compat/vitest-latest.mjs            the newest vitest ("latest")
//   node test/compat/vitest-latest.mjs 5.0.1      one version
//
// vitest 5 declares Node >= 22.12. On an older Node its reporter stops at Map.groupBy (Node
// 21+) when it prints failed tests, so there the runs preload test/compat/groupBy-polyfill.cjs;
// nothing else of vitest 5 needed a newer Node in these tests.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const wanted = process.argv[2] ?? "latest";
const major = (v) => Number.parseInt(v, 10);
const ours = JSON.parse(readFileSync(join(root, "node_modules/vitest/package.json"), "utf8")).version;
const version = execFileSync("npm", ["view", `vitest@${wanted}`, "version"], { encoding: "utf8", timeout: 60_000 })
  .trim()
  .split("\n")
  .pop()
  .replace(/^.*'(.*)'$/, "$1");
if (process.argv[2] === undefined && major(version) === major(ours)) {
  console.log(`vitest-latest: the newest vitest, ${version}, is the major this repository tests with (${ours}); nothing more to run`);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), `vcr-vitest-${version}-`));
let status = 1;
try {
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "langchain-vcr-vitest-latest", private: true }));
  // only vitest (and the peers npm adds: vite): the test projects take everything else from this repository
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", `vitest@${version}`], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 5 * 60_000,
  });
  const env = { ...process.env, VCR_TEST_VITEST: join(dir, "node_modules/vitest") };
  if (major(process.versions.node) < 22) {
    env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --require ${JSON.stringify(join(root, "test/compat/groupBy-polyfill.cjs"))}`.trim();
  }
  const started = Date.now();
  const out = spawnSync(process.execPath, [join(root, "node_modules/mocha/bin/mocha.js"), "test/runners/vitest.test.ts"], {
    cwd: root,
    env,
    stdio: "inherit",
    timeout: 10 * 60_000,
  });
  status = out.status ?? 1;
  console.log(
    `vitest-latest: vitest ${version} (Node ${process.versions.node}): ${status === 0 ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(0)}s)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
