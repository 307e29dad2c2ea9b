// The compatibility matrix (.ci/run runs it after `npm test`): the compatibility subset
// (test/compat/subset.ts, from ESM and from CommonJS) against the OLDEST and the NEWEST
// @langchain/core that package.json's peerDependencies declare, each with its
// @langchain/openai and @langchain/ollama, installed from the npm registry into a scratch project outside the
// repository together with the packed langchain-vcr (npm pack of the built dist/).
//
//   node test/compat/matrix.mjs              the declared range's floor and its newest version
//   node test/compat/matrix.mjs 1.1.42:1.0.0:1.0.0  probe one core:openai:ollama set (installs with --legacy-peer-deps)
//
// It is the only step of CI that reads the registry; `npm test` stays offline. It never
// writes inside the repository (cassettes/ included): fixtures go to a temporary directory.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
/** The oldest provider packages, tested with the floor core (their peer ranges are ^1.0.0). */
const PROVIDERS_FOR_FLOOR = { openai: "1.0.0", ollama: "1.0.0" };
const PROVIDERS = ["openai", "ollama"];
const INSTALL_TIMEOUT_MS = 5 * 60_000;
const RUN_TIMEOUT_MS = 2 * 60_000;

function npm(args, cwd, timeout = INSTALL_TIMEOUT_MS) {
  return execFileSync("npm", args, { cwd, encoding: "utf8", timeout, stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** The sets to test: argv's `core:openai:ollama` probes (a missing provider version is "latest"), or the declared range's ends. */
function pairs() {
  const probes = process.argv.slice(2);
  if (probes.length > 0) {
    return probes.map((p) => {
      const [core, openai = "latest", ollama = "latest"] = p.split(":");
      return { core, openai, ollama, probe: true };
    });
  }
  const range = pkg.peerDependencies["@langchain/core"];
  const floor = /^>=\s*(\d+\.\d+\.\d+)\s/.exec(range)?.[1];
  if (!floor) throw new Error(`compat: peerDependencies["@langchain/core"] is ${JSON.stringify(range)}; expected ">=X.Y.Z <N"`);
  const versions = [JSON.parse(npm(["view", `@langchain/core@${range}`, "version", "--json"], root, 60_000))].flat();
  const newest = versions
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort(byVersion)
    .pop();
  return [
    { core: floor, ...PROVIDERS_FOR_FLOOR },
    { core: newest, openai: "latest", ollama: "latest" },
  ];
}

/** A failure's output without the huge lines (tsx puts whole compiled modules in stack frames). */
function clip(text) {
  return text
    .split("\n")
    .map((line) => (line.length > 400 ? line.slice(0, 400) + " …" : line))
    .join("\n");
}

function byVersion(a, b) {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

function installedVersion(dir, name) {
  return JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version;
}

function runPair(pair, tarball) {
  const dir = mkdtempSync(join(tmpdir(), `vcr-compat-${pair.core}-`));
  try {
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "langchain-vcr-compat",
        private: true,
        dependencies: {
          "@langchain/core": pair.core,
          "@langchain/openai": pair.openai,
          "@langchain/ollama": pair.ollama,
          "langchain-vcr": `file:${tarball}`,
          zod: pkg.devDependencies.zod,
        },
      }),
    );
    const flags = ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...(pair.probe ? ["--legacy-peer-deps"] : [])];
    npm(flags, dir);
    const core = installedVersion(dir, "@langchain/core");
    const versions = Object.fromEntries(PROVIDERS.map((p) => [p, installedVersion(dir, `@langchain/${p}`)]));
    // one copy of core, or the subset would test another version than the one named
    const nested = PROVIDERS.find((p) => existsSync(join(dir, `node_modules/@langchain/${p}/node_modules/@langchain/core`)));
    if (nested) return { core, versions, ok: false, detail: `@langchain/${nested} installed its own nested @langchain/core` };
    for (const from of ["test/compat/subset.ts", "test/compat/esm.mjs", "test/compat/cjs.cjs", "test/helpers/child.ts", "examples/provider"]) {
      mkdirSync(dirname(join(dir, from)), { recursive: true });
      cpSync(join(root, from), join(dir, from), { recursive: true });
    }
    const results = [];
    for (const entry of ["esm.mjs", "cjs.cjs"]) {
      const env = { ...process.env };
      delete env.LANGCHAIN_VCR_MODE;
      delete env.LANGCHAIN_VCR_TOOL_MODE;
      const out = spawnSync(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), join(dir, "test/compat", entry)], {
        cwd: dir,
        env,
        encoding: "utf8",
        timeout: RUN_TIMEOUT_MS,
      });
      const ok = out.status === 0;
      results.push(
        ok
          ? out.stdout.trim().split("\n").pop()
          : `${entry} failed (status ${out.status}${out.signal ? `, ${out.signal}` : ""}):\n${clip(out.stdout + out.stderr)}`,
      );
      if (!ok) return { core, versions, ok: false, detail: results.join("\n") };
    }
    return { core, versions, ok: true, detail: results.join("\n") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const packDir = mkdtempSync(join(tmpdir(), "vcr-compat-pack-"));
let failed = 0;
try {
  if (!existsSync(join(root, "dist/cjs/index.js"))) throw new Error("compat: dist/ is missing; run `npm run build` first");
  const name = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", packDir], root))[0].filename;
  for (const pair of pairs()) {
    const started = Date.now();
    const r = runPair(pair, join(packDir, name));
    const secs = ((Date.now() - started) / 1000).toFixed(0);
    const providers = PROVIDERS.map((p) => `@langchain/${p} ${r.versions?.[p] ?? pair[p]}`).join(" + ");
    console.log(`compat: @langchain/core ${r.core} + ${providers}: ${r.ok ? "ok" : "FAILED"} (${secs}s)\n${r.detail}`);
    if (!r.ok) failed++;
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
if (failed > 0) {
  console.error(
    `compat: ${failed} version set(s) failed. The declared peer range is ${JSON.stringify(pkg.peerDependencies["@langchain/core"])} in package.json; see docs/compatibility.md.`,
  );
  process.exit(1);
}
