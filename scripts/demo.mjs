#!/usr/bin/env node
/**
 * `npm run demo`: langchain-vcr's record → replay loop, end to end, on this machine, offline.
 *
 * 1. record: runs the example suite (examples/*.spec.ts) with the stand-in provider — a
 *    deterministic local server started by the examples' root hook, not a model — recording
 *    into a scratch directory (.langchain-vcr/demo/cassettes, git-ignored);
 * 2. the stand-in is gone with that process; replay: runs the same suite in `replay_only`
 *    with no provider at all and every outgoing connection refused
 *    (examples/support/noNetwork.cjs);
 * 3. prints, per example file, the live calls, fixtures recorded/replayed, tool bodies run
 *    and time, for both runs, and where the fixtures are.
 *
 * Exits non-zero if an example failed, or if the replay made any live call, recorded or
 * missed anything, attempted a connection, or changed a fixture. Node only; no network, no key.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCRATCH = path.join(ROOT, ".langchain-vcr", "demo");
const CASSETTES = path.join(SCRATCH, "cassettes");
const MOCHA = path.join(ROOT, "node_modules", "mocha", "bin", "mocha.js");
const rel = (p) => path.relative(process.cwd(), p) || ".";

/** The environment of one examples run: only what the demo decides, nothing inherited that changes modes. */
function runEnv(extra) {
  const env = { ...process.env };
  for (const k of ["CI", "LANGCHAIN_VCR_MODE", "LANGCHAIN_VCR_TOOL_MODE", "EXAMPLES_PROVIDER", "EXAMPLES_CASSETTES", "EXAMPLES_REPORT"]) delete env[k];
  return {
    ...env,
    EXAMPLES_CASSETTES: CASSETTES,
    // the usage ledger of these runs must not speak for the committed cassettes/ (langchain-vcr prune)
    LANGCHAIN_VCR_LEDGER_DIR: path.join(SCRATCH, "ledgers"),
    LANGCHAIN_VCR_QUIET: "1",
    ...extra,
  };
}

function runExamples(title, extraEnv, extraArgs = []) {
  const report = path.join(SCRATCH, `${title}.json`);
  fs.rmSync(report, { force: true });
  const started = performance.now();
  const child = spawnSync(process.execPath, [MOCHA, "--config", path.join("examples", ".mocharc.json"), "--reporter", "dot", ...extraArgs], {
    cwd: ROOT,
    stdio: "inherit",
    env: runEnv({ EXAMPLES_REPORT: report, ...extraEnv }),
  });
  const wallMs = performance.now() - started;
  const data = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, "utf8")) : undefined;
  return { status: child.status ?? 1, wallMs, report: data };
}

function fixtureDigest(dir) {
  const h = createHash("sha256");
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) h.update(f).update(fs.readFileSync(path.join(dir, f)));
  return h.digest("hex");
}

function fixtureKinds(dir) {
  const kinds = {};
  let files = 0;
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!f.endsWith(".json")) continue;
    files++;
    const kind = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).kind;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return { files, kinds };
}

const ms = (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${Math.round(n)} ms`);
const pad = (s, n, left = false) => (left ? String(s).padEnd(n) : String(s).padStart(n));

// ---------------------------------------------------------------------------------------------

console.log("langchain-vcr demo: record the examples against a local stand-in provider, then replay them with no provider and no network.\n");
if (!fs.existsSync(MOCHA)) {
  console.error("mocha is not installed: run `npm install` first.");
  process.exit(1);
}
fs.rmSync(SCRATCH, { recursive: true, force: true });
fs.mkdirSync(CASSETTES, { recursive: true });

console.log(`1/2 record — mode record_or_replay, the stand-in provider (deterministic, not a model) answers; fixtures → ${rel(CASSETTES)}`);
const rec = runExamples("record", { EXAMPLES_PROVIDER: "standin", LANGCHAIN_VCR_MODE: "record_or_replay" });
console.log(`\nThe recording process has exited: the stand-in provider is stopped.\n`);

const before = fixtureDigest(CASSETTES);
console.log("2/2 replay — mode replay_only, no provider (EXAMPLES_PROVIDER=off), every outgoing connection refused");
const rep = runExamples("replay", { EXAMPLES_PROVIDER: "off", LANGCHAIN_VCR_MODE: "replay_only" }, [
  "--require",
  path.join("examples", "support", "noNetwork.cjs"),
]);
const unchanged = fixtureDigest(CASSETTES) === before;

// ---------------------------------------------------------------------------------------------

const problems = [];
if (rec.status !== 0) problems.push(`the recording run failed (mocha exit code ${rec.status})`);
if (rep.status !== 0) problems.push(`the replay run failed (mocha exit code ${rep.status})`);
if (!rec.report || !rep.report) problems.push("a run wrote no report (it crashed before its root hook finished)");

const specFiles = fs
  .readdirSync(path.join(ROOT, "examples"))
  .filter((f) => f.endsWith(".spec.ts"))
  .sort();
const byFile = (r) => new Map((r?.files ?? []).map((f) => [f.file, f]));
const recFiles = byFile(rec.report);
const repFiles = byFile(rep.report);
const W = Math.max(24, ...specFiles.map((f) => f.length));
const live = (f) => (f ? f.httpRequests + f.recorded + f.bypassed : 0);

console.log(`\n${" ".repeat(W + 2)}── record (stand-in provider) ──────────      ── replay (no provider, no network) ──`);
console.log(
  `${pad("example", W, true)}  ${pad("live calls", 10)} ${pad("recorded", 8)} ${pad("tools run", 9)} ${pad("time", 7)}` +
    `      ${pad("live calls", 10)} ${pad("replayed", 8)} ${pad("tools run", 9)} ${pad("time", 7)}`,
);
const total = { rl: 0, rr: 0, rt: 0, rms: 0, pl: 0, pr: 0, pt: 0, pms: 0 };
for (const spec of specFiles) {
  const key = `examples/${spec}`;
  const r = recFiles.get(key);
  const p = repFiles.get(key);
  if (!r && !p) {
    console.log(`${pad(spec, W, true)}  skipped: runs only against a real provider (OPENAI_API_KEY or OLLAMA_HOST)`);
    continue;
  }
  const row = {
    rl: r?.httpRequests ?? 0,
    rr: r?.recorded ?? 0,
    rt: r?.toolRuns ?? 0,
    rms: r?.ms ?? 0,
    pl: live(p),
    pr: p?.replayed ?? 0,
    pt: p?.toolRuns ?? 0,
    pms: p?.ms ?? 0,
  };
  for (const k of Object.keys(total)) total[k] += row[k];
  console.log(
    `${pad(spec, W, true)}  ${pad(row.rl, 10)} ${pad(row.rr, 8)} ${pad(row.rt, 9)} ${pad(ms(row.rms), 7)}` +
      `      ${pad(row.pl, 10)} ${pad(row.pr, 8)} ${pad(row.pt, 9)} ${pad(ms(row.pms), 7)}`,
  );
  if (p && (p.failed || p.missed)) problems.push(`${spec}: ${p.failed} failed, ${p.missed} missed in the replay`);
  if (p && live(p) > 0) problems.push(`${spec}: ${live(p)} live call(s) in the replay`);
  if (p && p.toolRuns > 0) problems.push(`${spec}: ${p.toolRuns} tool body run(s) in the replay`);
}
console.log(
  `${pad("total", W, true)}  ${pad(total.rl, 10)} ${pad(total.rr, 8)} ${pad(total.rt, 9)} ${pad(ms(total.rms), 7)}` +
    `      ${pad(total.pl, 10)} ${pad(total.pr, 8)} ${pad(total.pt, 9)} ${pad(ms(total.pms), 7)}`,
);
console.log(
  [
    "",
    "live calls: HTTP requests the provider received (record) / calls langchain-vcr let through (replay)",
    "recorded, replayed: fixtures written / read      tools run: tool bodies executed",
    "time: the file's tests (the first file also pays the warm-up: modules LangChain loads lazily);",
    `      the stand-in answers in about a millisecond, a real model in seconds. Whole runs, with mocha and`,
    `      TypeScript start-up: ${ms(rec.wallMs)} recording, ${ms(rep.wallMs)} replaying.`,
  ].join("\n"),
);

const blocked = rep.report?.blockedConnections;
if (!blocked) problems.push("the replay ran without the network block (examples/support/noNetwork.cjs not loaded)");
else if (blocked.count > 0) problems.push(`the replay attempted ${blocked.count} connection(s): ${blocked.targets.join(", ")}`);
if (!unchanged) problems.push("the replay changed the fixtures");

const { files, kinds } = fixtureKinds(CASSETTES);
const kindText = Object.entries(kinds)
  .map(([k, n]) => `${n} ${k}`)
  .join(", ");
console.log(`\nfixtures: ${rel(CASSETTES)}/ — ${files} files (${kindText}); one JSON file per request, named by its hash.`);
console.log(`the same examples replay from the committed cassettes/ in \`npm run examples\` (and \`npm test\`).`);

if (problems.length) {
  console.error(`\ndemo FAILED:\n  - ${problems.join("\n  - ")}`);
  process.exit(1);
}
console.log(
  `\nreplay: 0 live calls, 0 tool bodies run, ${blocked.count} connection attempts, fixtures unchanged — ` + `everything came from ${rel(CASSETTES)}/.`,
);
