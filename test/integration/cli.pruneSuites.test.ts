/**
 * prune's refusal when several other suites share the fixture directory and none of their last
 * runs can be trusted (trial 42 M2: one-off `node --test <file>` runs, each a suite of its own):
 * every one is named in one refusal, with one `rm -r` of all their ledgers, which then lets prune
 * go ahead. The ledgers are written as the runners write them; the CLI runs as users run it.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { defaultLedgerDir, writeLedger } from "../../src/runner/ledgerFiles";
import { cli } from "../helpers/cliRun";
import { ledgerRecord } from "../helpers/ledgerRecord";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("langchain-vcr prune with several untrusted other suites sharing the directory", () => {
  after(removeTmpDirs);

  it("names them all in one refusal, with one rm -r of every ledger; run as printed, the next prune removes the fixture no run used", async () => {
    const root = tmpDir("vcr-prune-suites-");
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "app", private: true }));
    for (const f of ["test/a.test.mjs", "repro/x.test.mjs", "repro/y.test.mjs"]) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), "");
    }
    fs.mkdirSync(path.join(root, "cassettes"));
    const file = (name: string) => `${createHash("sha256").update(name).digest("hex")}.json`; // named as fixtures are
    for (const name of ["a", "x", "y", "old"]) fs.writeFileSync(path.join(root, "cassettes", file(name)), "{}\n");
    const ledgers = defaultLedgerDir(root, {});
    const base = Date.now() + 60_000; // after the fixtures were written: none was recorded after a run started
    const run = (minute: number, specFiles: string[], used: string[], partial: string[]) => {
      const startedAt = new Date(base + minute * 60_000).toISOString();
      writeLedger(ledgers, ledgerRecord({ runId: `2026-run-${minute}`, n: minute, startedAt, partial, specFiles, used, runner: "node --test" }));
    };
    run(1, ["repro/x.test.mjs"], [`cassettes/${file("x")}`], ["test files named on the command line: repro/x.test.mjs"]);
    run(2, ["repro/y.test.mjs"], [`cassettes/${file("y")}`], ["test files named on the command line: repro/y.test.mjs"]);
    run(3, ["test/a.test.mjs"], [`cassettes/${file("a")}`], []);

    const refused = await cli(["prune"], root);
    expect(refused.code, refused.stdout + refused.stderr).to.equal(1);
    const lines = refused.stderr.split("\n");
    expect(lines[0]).to.equal(
      "langchain-vcr: prune refused: 2 other suites use cassettes too, and the last run of each cannot be trusted, so fixtures no run used may be their tests':",
    );
    expect(lines.slice(1, 5).join("\n")).to.match(
      /^ {2}- node --test run 2026-run-2 \(started \S+; test files repro\/y\.test\.mjs\): its last run was partial:\n {6}- test files named on the command line: repro\/y\.test\.mjs\n {2}- node --test run 2026-run-1 \(started \S+; test files repro\/x\.test\.mjs\): its last run was partial:\n {6}- test files named on the command line: repro\/x\.test\.mjs$/,
    );
    const fix = lines[5]!;
    expect(fix).to.match(
      /^ {2}Fix: run each of those suites whole too \(node --test, no filter\), then run langchain-vcr prune again\. If they are gone \(one-off runs of a few files, say\), delete their ledgers: rm -r "[^"]+" "[^"]+"$/,
    );
    expect(fs.readdirSync(path.join(root, "cassettes"))).to.have.length(4);

    execFileSync("bash", ["-c", fix.slice(fix.indexOf("rm -r "))], { cwd: root });
    const pruned = await cli(["prune"], root);
    expect(pruned.code, pruned.stderr).to.equal(0);
    expect(fs.readdirSync(path.join(root, "cassettes")).sort()).to.deep.equal([file("a")]);
  });
});
