/**
 * The ledger's pure parts, in-process: what a mocha command line says about completeness,
 * which run a process joins, and how the ledgers of the last run merge into one verdict
 * (shards, retries, unfinished runs). The end-to-end behaviour is in ledger.test.ts.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { defaultLedgerDir, lastRunVerdict, parseShard, writeLedger, type LedgerRecord } from "../../src/runner/ledgerFiles";
import { commandArgs, CONTEXT_ENV, mochaArgvReasons, resolveRunContext, serializeContext } from "../../src/mocha/runContext";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const MOCHA = "/p/node_modules/mocha/bin/mocha.js";
const reasons = (args: string[], shard = false) => [...mochaArgvReasons(["node", MOCHA, ...args], shard)];

function record(over: Partial<LedgerRecord>): LedgerRecord {
  return {
    ledgerVersion: 1,
    runId: "r1",
    mainId: "100-aaaaaa",
    role: "main",
    pid: 100,
    startedAt: "2026-01-01T00:00:00.000Z",
    writtenAt: "2026-01-01T00:01:00.000Z",
    exitCode: 0,
    partial: [],
    specFiles: [],
    used: [],
    ...over,
  };
}

describe("ledger: command line, run context and merging", () => {
  afterEach(() => removeTmpDirs());

  describe("mochaArgvReasons", () => {
    it("finds nothing partial in a plain run, whatever value-taking options it has", () => {
      expect(reasons([])).to.deep.equal([]);
      expect(reasons(["--require", "ts-node/register", "-r", "x.ts", "--timeout", "5000", "--reporter=dot", "--parallel", "-j", "2", "--exit"])).to.deep.equal(
        [],
      );
    });

    it("flags --grep, -g, --fgrep=, --watch and --dry-run", () => {
      expect(reasons(["--grep", "login"])).to.deep.equal(['--grep "login" selected only some tests']);
      expect(reasons(["-g", "x"])).to.deep.equal(['--grep "x" selected only some tests']);
      expect(reasons(["--fgrep=a b"])).to.deep.equal(['--fgrep "a b" selected only some tests']);
      expect(reasons(["-w"])).to.deep.equal(["--watch runs are never complete"]);
      expect(reasons(["--dry-run"])).to.deep.equal(["--dry-run ran no tests"]);
    });

    it("flags spec files named on the command line (positional, --spec, after --), unless the run is a declared shard", () => {
      const [named] = reasons(["-r", "setup.js", "test/a.spec.js", "--spec", "test/b.spec.js", "--", "test/c.spec.js"]);
      expect(named).to.match(/^spec files were named on the command line \(test\/a\.spec\.js test\/b\.spec\.js test\/c\.spec\.js\), so this may be a subset/);
      expect(reasons(["test/a.spec.js"], true)).to.deep.equal([]);
    });

    it("reads the config's spec only when the command line names spec files, and then does not count the config's own", () => {
      let reads = 0;
      const configSpec = () => (reads++, { spec: ["test/**/*.spec.js"], ignore: [] });
      expect([...mochaArgvReasons(["node", MOCHA, "--grep", "x", "-r", "setup.js"], false, configSpec)]).to.deep.equal(['--grep "x" selected only some tests']);
      expect(reads).to.equal(0);
      expect([...mochaArgvReasons(["node", MOCHA, "test/**/*.spec.js"], false, configSpec)]).to.deep.equal([]); // mocha's re-spawned child
      expect(reads).to.equal(1);
      expect([...mochaArgvReasons(["node", MOCHA, "test/a.spec.js"], false, configSpec)]).to.have.length(1);
      expect(reads).to.equal(2);
    });

    it("flags files left out with --ignore / --exclude, shard or not, unless the config ignores them too (mocha's re-spawned child)", () => {
      const reason = "--ignore on the command line left test files out, so this may be a subset of the suite (to make it the suite, set ignore in .mocharc)";
      expect(reasons(["--ignore", "test/b.spec.js"])).to.deep.equal([reason]);
      expect(reasons(["--ignore=test/b.spec.js"], true)).to.deep.equal([reason]);
      expect(reasons(["--exclude", "a", "--ignore", "b"])).to.deep.equal([
        "--exclude, --ignore on the command line left test files out, so this may be a subset of the suite (to make it the suite, set ignore in .mocharc)",
      ]);
      const config = { spec: ["test/**/*.spec.js"], ignore: ["test/slow.spec.js"] };
      expect([...mochaArgvReasons(["node", MOCHA, "test/**/*.spec.js", "--ignore", "test/slow.spec.js"], false, config)]).to.deep.equal([]);
      expect([...mochaArgvReasons(["node", MOCHA, "--ignore", "test/slow.spec.js", "--ignore", "test/b.spec.js"], false, config)]).to.deep.equal([reason]);
    });

    it("treats a run not started by the mocha command line as partial", () => {
      expect([...mochaArgvReasons(["node", "/p/scripts/run-tests.js"], false)]).to.deep.equal([
        "not started by the mocha command line (/p/scripts/run-tests.js), so which spec files ran is unknown",
      ]);
    });
  });

  describe("resolveRunContext", () => {
    const now = new Date("2026-02-03T04:05:06.789Z");
    it("starts a run in the main process, and a worker forked by it joins that run", () => {
      const main = resolveRunContext({ env: {}, argv: ["node", MOCHA, "--grep", "x"], pid: 10, ppid: 1, now });
      expect(main).to.include({ role: "main", mainPid: 10, startedAt: now.toISOString() });
      expect(main.runId).to.match(/^20260203T040506789Z-10-[0-9a-f]{6}$/);
      expect(main.argvReasons).to.deep.equal(['--grep "x" selected only some tests']);
      const env = { [CONTEXT_ENV]: serializeContext(main), MOCHA_WORKER_ID: "0" };
      const worker = resolveRunContext({ env, argv: ["node", "/p/node_modules/mocha/lib/nodejs/worker.cjs"], pid: 11, ppid: 10, now });
      expect(worker).to.deep.equal({ ...JSON.parse(serializeContext(main)), role: "worker" });
    });

    it("keeps the main process's mocha arguments but its name filters and watch options, for a miss's command (a worker inherits them)", () => {
      const argv = [
        "node",
        MOCHA,
        "-r",
        "./vcr-setup.js",
        "--config=.mocharc.e2e.json",
        "--grep",
        "x",
        "-i",
        "--watch",
        "--timeout",
        "5000",
        "-g=y",
        "test/a.spec.js",
      ];
      const main = resolveRunContext({ env: {}, argv, pid: 10, ppid: 1, now });
      expect(main.command).to.deep.equal(["-r", "./vcr-setup.js", "--config=.mocharc.e2e.json", "--timeout", "5000", "test/a.spec.js"]);
      expect(commandArgs(["--fgrep", "--not-an-option", "-f", "z", "--", "--grep", "kept"])).to.deep.equal(["--", "--grep", "kept"]);
      const worker = resolveRunContext({
        env: { [CONTEXT_ENV]: serializeContext(main), MOCHA_WORKER_ID: "0" },
        argv: ["node", "worker.cjs"],
        pid: 11,
        ppid: 10,
        now,
      });
      expect(worker.command).to.deep.equal(main.command);
      expect(resolveRunContext({ env: {}, argv: ["node", "/p/scripts/run-tests.js"], pid: 1, ppid: 0, now }).command).to.equal(undefined);
      // mocha re-spawned for a config's node-option: every resolved option spelled out, not the user's words
      const respawn = ["node", MOCHA, "test/*.spec.cjs", "--reporter=spec", "--require=langchain-vcr/mocha", "--no-package", "--no-config"];
      expect(resolveRunContext({ env: {}, argv: respawn, pid: 1, ppid: 0, now }).command).to.equal(undefined);
    });

    it("a mocha started by a test (inheriting the variables, but not forked by that main) starts its own run", () => {
      const outer = resolveRunContext({ env: {}, argv: ["node", MOCHA], pid: 10, ppid: 1, now });
      const env = { [CONTEXT_ENV]: serializeContext(outer), MOCHA_WORKER_ID: "1" };
      const nested = resolveRunContext({ env, argv: ["node", MOCHA], pid: 20, ppid: 15, now });
      expect(nested.role).to.equal("main");
      expect(nested.runId).to.not.equal(outer.runId);
      const serialOuter = resolveRunContext({ env: { [CONTEXT_ENV]: serializeContext(outer) }, argv: ["node", MOCHA], pid: 21, ppid: 10, now });
      expect(serialOuter.role).to.equal("main", "without MOCHA_WORKER_ID it is not a worker, even as a child of the main");
    });

    it("takes the run id and shard from LANGCHAIN_VCR_RUN_ID and LANGCHAIN_VCR_SHARD, and rejects a malformed shard", () => {
      const c = resolveRunContext({ env: { LANGCHAIN_VCR_RUN_ID: "ci-7", LANGCHAIN_VCR_SHARD: "2/3" }, argv: ["node", MOCHA, "t.js"], pid: 1, ppid: 0, now });
      expect(c).to.include({ runId: "ci-7" });
      expect(c.shard).to.deep.equal({ index: 2, total: 3 });
      expect(c.argvReasons).to.deep.equal([]);
      const bad = resolveRunContext({ env: { LANGCHAIN_VCR_SHARD: "4/3" }, argv: ["node", MOCHA], pid: 1, ppid: 0, now });
      expect(bad.argvReasons).to.deep.equal(['LANGCHAIN_VCR_SHARD="4/3" is not <index>/<total> (e.g. 2/3)']);
      expect(parseShard(" 1 / 1 ")).to.deep.equal({ index: 1, total: 1 });
    });
  });

  describe("lastRunVerdict", () => {
    it("merges the main and worker ledgers of the latest run, ignoring older runs", () => {
      const dir = tmpDir("vcr-ledgers-");
      writeLedger(dir, record({ runId: "old", mainId: "1-a", startedAt: "2025-12-01T00:00:00.000Z", used: ["cassettes/old.json"] }));
      writeLedger(dir, record({ used: [] }));
      writeLedger(dir, record({ role: "worker", pid: 101, exitCode: undefined, used: ["cassettes/a.json"] }));
      writeLedger(dir, record({ role: "worker", pid: 102, exitCode: undefined, used: ["cassettes/b.json", "cassettes/a.json"] }));
      const v = lastRunVerdict(dir, "/proj")!;
      expect(v).to.include({ runId: "r1", complete: true, processes: 3 });
      expect([...v.used].sort()).to.deep.equal(["/proj/cassettes/a.json", "/proj/cassettes/b.json"]);
    });

    it("is partial when the latest run failed, did not finish, or has no main record — even if an older run was complete", () => {
      const cases: [Partial<LedgerRecord>[], string][] = [
        [[{ exitCode: 2 }], "the run failed: mocha exited with code 2"],
        [[{ exitCode: undefined }], "the run did not finish (mocha is still running, or was killed)"],
        [[{ role: "worker", exitCode: undefined }], "the run left no record from its main mocha process"],
        [[{ partial: ["1 test(s) failed"] }], "1 test(s) failed"],
      ];
      for (const [records, reason] of cases) {
        const dir = tmpDir("vcr-ledgers-");
        writeLedger(dir, record({ runId: "older", mainId: "1-a", startedAt: "2025-01-01T00:00:00.000Z" }));
        for (const r of records) writeLedger(dir, record(r));
        const v = lastRunVerdict(dir, "/proj")!;
        expect(v.complete, reason).to.equal(false);
        expect(v.reasons.join("\n")).to.include(reason);
      }
    });

    it("flags an unreadable ledger file in the run's directory", () => {
      const dir = tmpDir("vcr-ledgers-");
      const file = writeLedger(dir, record({}));
      fs.writeFileSync(path.join(path.dirname(file), "broken.json"), "{");
      const v = lastRunVerdict(dir, "/proj")!;
      expect(v.complete).to.equal(false);
      expect(v.reasons[0]).to.match(/^the ledger .*broken\.json is not valid JSON/);
    });

    it("shards: needs every shard; a retried shard's latest attempt wins; mixing sharded and unsharded is partial", () => {
      const dir = tmpDir("vcr-ledgers-");
      const shard = (i: number, over: Partial<LedgerRecord> = {}) =>
        record({ runId: "ci", mainId: `${i}-x`, pid: i, shard: { index: i, total: 3 }, used: [`c/${i}.json`], ...over });
      writeLedger(dir, shard(1));
      writeLedger(dir, shard(2, { mainId: "2-first", exitCode: 1, startedAt: "2026-01-01T00:00:00.000Z" }));
      let v = lastRunVerdict(dir, "/p")!;
      expect(v.reasons).to.deep.equal([
        "shard 2/3 failed: mocha exited with code 1",
        `no ledger from shard 3/3 of run ci: give every shard of a run the same LANGCHAIN_VCR_RUN_ID, and copy every shard's ledger files into ${dir} before pruning`,
      ]);
      writeLedger(dir, shard(2, { mainId: "2-retry", startedAt: "2026-01-01T00:05:00.000Z" }));
      writeLedger(dir, shard(3));
      v = lastRunVerdict(dir, "/p")!;
      expect(v).to.include({ complete: true, shards: 3, processes: 3 });
      expect([...v.used].sort()).to.deep.equal(["/p/c/1.json", "/p/c/2.json", "/p/c/3.json"]);
      writeLedger(dir, record({ runId: "ci", mainId: "9-y" }));
      expect(lastRunVerdict(dir, "/p")!.reasons).to.deep.equal(["some processes of run ci declared LANGCHAIN_VCR_SHARD and some did not"]);
    });

    it("returns undefined when there is no ledger; the default dir is node_modules/.cache under cwd, or LANGCHAIN_VCR_LEDGER_DIR", () => {
      expect(lastRunVerdict(path.join(tmpDir("vcr-ledgers-"), "none"))).to.equal(undefined);
      expect(defaultLedgerDir("/proj", {})).to.equal(path.join("/proj", "node_modules", ".cache", "langchain-vcr", "ledgers"));
      expect(defaultLedgerDir("/proj", { LANGCHAIN_VCR_LEDGER_DIR: "ci-ledgers" })).to.equal(path.join("/proj", "ci-ledgers"));
    });
  });
});
