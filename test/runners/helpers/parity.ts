/**
 * The parity table of issue 14 as one list of checks, run against each runner's project: record,
 * replay with the provider gone, prune after a full run / a filtered run / a shard pair, a failed
 * test's cleanup, a miss's test line and hint, a hanging provider's note, a bad mode. Each runner's
 * test file says how to start its runner and how its filters are spelled.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ChildResult } from "../../helpers/child";
import { git } from "../../helpers/git";
import { startFakeProvider, type FakeProvider } from "../../helpers/fakeProvider";
import { removeTmpDirs } from "../../helpers/tmp";
import { startHangingServer } from "./hangingServer";
import { addDeadFixture, FIXTURES, fixturesOf, makeProject, REFUND_ANSWERS, summaryLines, type Project } from "./project";

export interface RunnerSpec {
  /** e.g. "vitest 4" */
  name: string;
  files: Record<string, string>;
  /** node arguments that start the runner on the whole suite */
  command: string[];
  /** arguments that select tests by name (a regular expression) */
  filter(pattern: string): string[];
  shard(index: number, total: number): string[];
  /** environment a shard needs besides its arguments (mocha declares shards in LANGCHAIN_VCR_SHARD) */
  shardEnv?(index: number, total: number): NodeJS.ProcessEnv;
  /** the pattern that selects the chat test, and the one that selects it and the hanging test */
  chatOnly: string;
  chatAndHang: string;
  /** the title of the chat test and of the hanging test, as langchain-vcr names them */
  chatTitle: string;
  hangTitle: string;
  /** the re-record hint a miss in the chat test gives */
  hint: string;
  /** a test file that focuses one test with `.only` (runners that honour it without a flag) */
  onlyFile?: { name: string; text: string };
  /** a test file whose tests are all skipped (`.skip`) */
  skippedFile: { name: string; text: string };
  /** the project needs its own copy of mocha */
  mocha?: boolean;
  /** the project's concurrent tests run concurrently (vitest, node:test) */
  concurrent: boolean;
  /** a runner-specific reason a filtered run is partial, as prune prints it */
  filterReason: string;
  /** how the runner runs only the test files git sees changed, and the reason prune then prints */
  changedOnly?: { args: string[]; file: string; reason: string };
  /** a rerun of only the tests that failed before (jest --onlyFailures) and prune's reason for it */
  failuresOnly?: { args: string[]; reason: string };
  /** an option that leaves test files out of the suite, and the option as prune's reason names it */
  narrowing?: { args: string[]; option: string };
  /** node arguments that list the suite's tests without running any (runners that have such a command) */
  list?: string[];
  /** the plugin is not handed a failed test's error (node:test): it cannot tell a test its caught miss failed */
  failureUnseen?: true;
  /** the runner itself writes to TMPDIR (vitest's transforms, jest's cache): it cannot run without a writable one */
  runnerNeedsTmpdir?: true;
}

/** The name filter, shards and titles of vitest and jest, which spell them the same way. */
export const DASH_T: Pick<RunnerSpec, "filter" | "shard" | "chatOnly" | "chatAndHang" | "chatTitle" | "hangTitle" | "filterReason"> = {
  filter: (pattern) => ["-t", pattern],
  shard: (i, n) => [`--shard=${i}/${n}`],
  chatOnly: "chat",
  chatAndHang: "chat asks|hang",
  chatTitle: "chat asks",
  hangTitle: "hang times out",
  filterReason: `-t "chat" selected only some tests`,
};

export function describeParity(spec: RunnerSpec): void {
  describe(`${spec.name} in a child process: the parity table`, function () {
    this.timeout(240000);
    let fake: FakeProvider;
    let p: Project;
    let recordRun: ChildResult;
    let keptByFilteredRun: string; // an unused fixture a filtered run must not let prune delete
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      p.run([...spec.command, ...args], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "replay_only", ...env });

    before(async () => {
      fake = await startFakeProvider({ answers: REFUND_ANSWERS });
      p = makeProject(spec.files, { mocha: spec.mocha });
      recordRun = await run([], { LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(recordRun.status, recordRun.stdout + recordRun.stderr).to.equal(0);
    });
    after(async () => {
      await fake.close();
      removeTmpDirs();
    });

    it("records: one summary line summed over the test processes; two tests asking the agent the same refund run the tool once; each test numbers its own calls", () => {
      expect(p.sideLines().filter((l) => l.startsWith("refund "))).to.deep.equal(["refund 42 10"]);
      expect(fixturesOf(p, "tool", "lookup")).to.have.length(2); // calls 1 and 2 of each test, never 3 or 4
      expect(fixturesOf(p, "tool", "issue_refund")).to.have.length(1);
      expect(fake.count()).to.be.greaterThan(0);
      const lines = summaryLines(recordRun);
      expect(lines, recordRun.stdout + recordRun.stderr).to.have.length(1);
      const n = p.fixtures().length;
      expect(lines[0]).to.match(
        new RegExp(`^langchain-vcr: \\d+ replayed, ${n} recorded, 0 bypassed, 0 missed — mode record_or_replay \\(env LANGCHAIN_VCR_MODE\\), fixtures: `),
      );
      expect(lines[0]).to.include(path.join(p.dir, FIXTURES));
      expect(recordRun.stdout + recordRun.stderr).to.not.include("No test process built a Vcr"); // every test process's Vcr counted
      if (spec.concurrent) expect(p.sideLines().filter((l) => l.startsWith("lookup "))).to.have.length(2); // the twin waited on the one live call
    });

    it("replays with the provider gone: 0 requests, 0 tool bodies, one summary line; then prune removes exactly the unused fixture", async () => {
      const before = fake.count();
      fs.writeFileSync(p.side, "");
      const out = await run([], { FAKE_URL: "http://127.0.0.1:9/v1" });
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      expect(fake.count()).to.equal(before);
      expect(p.sideLines().filter((l) => !l.startsWith("ran "))).to.deep.equal([]);
      expect(p.sideLines().length).to.be.greaterThan(0);
      const lines = summaryLines(out);
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/^langchain-vcr: \d+ replayed, 0 recorded, 0 bypassed, 0 missed — mode replay_only \(env LANGCHAIN_VCR_MODE\)/);
      const kept = p.fixtures();
      const dead = addDeadFixture(p, "full run");
      // a test file edited since the run: its ledger no longer speaks for the tests (every test file is digested)
      const testFile = Object.keys(spec.files).find((f) => /\.test\.|\.spec\./.test(f))!;
      const original = fs.readFileSync(path.join(p.dir, testFile));
      fs.appendFileSync(path.join(p.dir, testFile), "\n// edited since the run\n");
      const stale = await p.cli(["prune", FIXTURES]);
      expect(stale.status, stale.stderr).to.equal(1);
      expect(stale.stderr).to.include(`test file(s) changed since the run (`).and.include(testFile);
      fs.writeFileSync(path.join(p.dir, testFile), original);
      const prune = await p.cli(["prune", FIXTURES]);
      expect(prune.status, prune.stderr).to.equal(0);
      expect(prune.stdout).to.include(`removed 1 of ${kept.length + 1} fixture(s)`);
      expect(p.fixtures()).to.deep.equal(kept);
      expect(p.fixtures()).to.not.include(dead);
    });

    it("stats --by-test and show name each test's own test file (two files, each test under its own)", async () => {
      const testFiles = Object.keys(spec.files).filter((f) => /^test\/[ab]\./.test(f));
      expect(testFiles).to.have.length(2);
      const stats = await p.cli(["stats", FIXTURES, "--by-test", "--json"]);
      expect(stats.status, stats.stderr).to.equal(0);
      const byTest = JSON.parse(stats.stdout).byTest as Record<string, Record<string, string[]>>;
      expect(Object.keys(byTest)).to.deep.equal(testFiles.sort());
      const [chatFile, agentFile] = testFiles;
      expect(Object.keys(byTest[chatFile])).to.deep.equal([spec.chatTitle]);
      expect(byTest[chatFile][spec.chatTitle]).to.have.length(1);
      expect(Object.keys(byTest[agentFile]).length).to.be.greaterThan(1);
      const shown = await p.cli(["show", byTest[chatFile][spec.chatTitle][0]]);
      expect(shown.status, shown.stderr).to.equal(0);
      expect(shown.stdout).to.include(`  used by:  ${chatFile}: ${JSON.stringify(spec.chatTitle)}  (run `);
    });

    it("a run filtered by test name makes prune refuse and keep every fixture", async () => {
      const out = await run(spec.filter(spec.chatOnly));
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      keptByFilteredRun = addDeadFixture(p, "filtered run");
      const all = p.fixtures();
      const prune = await p.cli(["prune", FIXTURES]);
      expect(prune.status).to.equal(1);
      expect(prune.stderr).to.include("prune refused").and.include(spec.filterReason);
      expect(p.fixtures()).to.deep.equal(all);
    });

    if (spec.narrowing) {
      it("a run that leaves test files out with a command-line option makes prune refuse and keep every fixture", async () => {
        const out = await run(spec.narrowing!.args);
        expect(out.status, out.stdout + out.stderr).to.equal(0);
        const all = p.fixtures();
        const prune = await p.cli(["prune", FIXTURES]);
        expect(prune.status, prune.stdout + prune.stderr).to.equal(1);
        expect(prune.stderr).to.include("prune refused").and.include(`${spec.narrowing!.option} on the command line left test files out`);
        expect(p.fixtures()).to.deep.equal(all);
      });
    }

    if (spec.failuresOnly) {
      it("a rerun of only the tests that failed before makes prune refuse and keep every fixture", async () => {
        const failing = await run([], { FAIL: "1" });
        expect(failing.status, failing.stdout + failing.stderr).to.not.equal(0);
        fs.writeFileSync(p.side, "");
        const out = await run(spec.failuresOnly!.args);
        expect(out.status, out.stdout + out.stderr).to.equal(0);
        expect(p.sideLines(), "only the test that failed ran").to.deep.equal([`ran ${spec.chatTitle}`]);
        expect(p.fixtures()).to.include(keptByFilteredRun); // unused: a prune that ran would remove it
        const prune = await p.cli(["prune", FIXTURES]);
        expect(prune.status, prune.stdout + prune.stderr).to.equal(1);
        expect(prune.stderr).to.include("prune refused").and.include(spec.failuresOnly!.reason);
        expect(p.fixtures()).to.include(keptByFilteredRun);
      });
    }

    if (spec.changedOnly) {
      it("a run of only the test files git sees changed makes prune refuse and keep every fixture", async () => {
        const changed = spec.changedOnly!;
        const file = path.join(p.dir, changed.file);
        const text = fs.readFileSync(file, "utf8");
        fs.writeFileSync(path.join(p.dir, ".gitignore"), "node_modules/\nside-effects.log\n");
        git(p.dir, "init", "-q");
        git(p.dir, "add", "-A");
        git(p.dir, "commit", "-qm", "the suite");
        fs.writeFileSync(file, text + "// changed\n");
        fs.writeFileSync(p.side, "");
        try {
          const out = await run(changed.args);
          expect(out.status, out.stdout + out.stderr).to.equal(0);
        } finally {
          fs.writeFileSync(file, text);
          fs.rmSync(path.join(p.dir, ".git"), { recursive: true, force: true });
          fs.rmSync(path.join(p.dir, ".gitignore"));
        }
        expect(p.sideLines(), "only the changed file's test ran").to.deep.equal([`ran ${spec.chatTitle}`]);
        const all = p.fixtures();
        expect(all).to.include(keptByFilteredRun); // unused: a prune that ran would remove it
        const prune = await p.cli(["prune", FIXTURES]);
        expect(prune.status, prune.stdout + prune.stderr).to.equal(1);
        expect(prune.stderr).to.include("prune refused").and.include(changed.reason);
        expect(prune.stderr).to.not.include("related ran only"); // vitest's --changed fills `related`: one reason
        expect(prune.stderr).to.not.include("test files named on the command line?"); // --changed chose them
        expect(p.fixtures()).to.deep.equal(all);
      });
    }

    /** A whole-suite run with one more test file, which is gone again after it. */
    const runWithFile = async (extra: { name: string; text: string }) => {
      const file = path.join(p.dir, extra.name);
      fs.writeFileSync(file, extra.text);
      try {
        const out = await run([]);
        expect(out.status, out.stdout + out.stderr).to.equal(0);
      } finally {
        fs.rmSync(file);
      }
    };

    it("a test file whose tests are all skipped leaves the run complete: prune does not refuse", async () => {
      await runWithFile(spec.skippedFile);
      const dry = await p.cli(["prune", "--dry-run", FIXTURES]);
      expect(dry.status, dry.stdout + dry.stderr).to.equal(0);
      expect(dry.stderr).to.not.include("refused");
    });

    if (spec.onlyFile) {
      it("a .only in one test file makes prune refuse", async () => {
        const only = spec.onlyFile!;
        await runWithFile(only);
        const all = p.fixtures();
        const prune = await p.cli(["prune", FIXTURES]);
        expect(prune.status).to.equal(1);
        expect(prune.stderr).to.include(".only selected exclusive tests in").and.include(only.name);
        expect(p.fixtures()).to.deep.equal(all);
      });
    }

    it("a shard pair sharing LANGCHAIN_VCR_RUN_ID is one complete run: prune removes exactly the unused fixture", async () => {
      const runId = `shards-${Date.now()}`;
      for (const i of [1, 2]) {
        const out = await run(spec.shard(i, 2), { LANGCHAIN_VCR_RUN_ID: runId, ...spec.shardEnv?.(i, 2) });
        expect(out.status, out.stdout + out.stderr).to.equal(0);
      }
      const used = p.fixtures().filter((f) => f !== keptByFilteredRun);
      const prune = await p.cli(["prune", FIXTURES]);
      expect(prune.status, prune.stderr).to.equal(0);
      expect(prune.stdout)
        .to.include("2 shard(s)")
        .and.include(`removed 1 of ${used.length + 1}`);
      expect(p.fixtures()).to.deep.equal(used);
    });

    // the next two come right after a complete run (the shard pair): prune would judge by it if
    // what follows left no record
    if (spec.list) {
      it("listing the tests runs none and leaves no record: prune still judges by the complete run before it", async () => {
        fs.writeFileSync(p.side, "");
        const listed = await p.run(spec.list!, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "replay_only" });
        expect(listed.status, listed.stdout + listed.stderr).to.equal(0);
        expect(p.sideLines()).to.deep.equal([], "no test ran");
        const dry = await p.cli(["prune", "--dry-run", FIXTURES]);
        expect(dry.status, dry.stdout + dry.stderr).to.equal(0);
      });
    }

    it("a shard whose main process is killed after a test recorded makes prune refuse and keep what it recorded, until the shard runs again", async () => {
      const runId = `killed-${Date.now()}`;
      const before = fake.count();
      const killed = await run(spec.shard(1, 2), {
        LANGCHAIN_VCR_RUN_ID: runId,
        LANGCHAIN_VCR_MODE: "record_or_replay",
        KILL_RUN: path.join(p.dir, `kill-${runId}.flag`),
        ...spec.shardEnv?.(1, 2),
      });
      expect(killed.status, killed.stdout + killed.stderr).to.not.equal(0);
      expect(fake.count() - before).to.equal(1, "the killed shard recorded one question before it was killed");
      const all = p.fixtures();
      for (const args of [
        ["prune", "--dry-run", FIXTURES],
        ["prune", FIXTURES],
      ]) {
        const r = await p.cli(args);
        expect(r.status, r.stdout + r.stderr).to.equal(1);
        expect(r.stderr).to.match(/ {2}- shard 1\/2 did not finish \(.+ is still running, or was killed\)\n/);
      }
      expect(p.fixtures()).to.deep.equal(all);
      // the shard runs again (a CI retry) and its sibling runs: the later attempt supersedes the killed one
      for (const i of [1, 2]) {
        const out = await run(spec.shard(i, 2), { LANGCHAIN_VCR_RUN_ID: runId, ...spec.shardEnv?.(i, 2) });
        expect(out.status, out.stdout + out.stderr).to.equal(0);
      }
      const dry = await p.cli(["prune", "--dry-run", FIXTURES]);
      expect(dry.status, dry.stdout + dry.stderr).to.equal(0);
      expect(dry.stdout).to.include("2 shard(s)");
    });

    it("a failed test's recording is removed and what it overwrote is restored byte for byte", async () => {
      const before = new Map(p.fixtures().map((f) => [f, fs.readFileSync(path.join(p.dir, FIXTURES, f))]));
      const out = await run(spec.filter(spec.chatOnly), { LANGCHAIN_VCR_MODE: "record_always", FAIL: "1" });
      expect(out.status).to.equal(1);
      expect(out.stdout + out.stderr).to.include(
        `langchain-vcr: test "${spec.chatTitle}" (${Object.keys(spec.files).find((f) => /^test\/a\./.test(f))}) failed: removed 1 fixture(s) it recorded and restored 1 it overwrote`,
      );
      // the two recordings it took back are not counted as recorded
      const lines = summaryLines(out);
      expect(lines, out.stdout + out.stderr).to.have.length(1);
      expect(lines[0]).to.match(/^langchain-vcr: \d+ replayed, 0 recorded \(2 more undone: their tests failed\), 0 bypassed, 0 missed/);
      expect(p.fixtures()).to.deep.equal([...before.keys()]);
      for (const [f, bytes] of before) expect(fs.readFileSync(path.join(p.dir, FIXTURES, f)).equals(bytes), f).to.equal(true);
    });

    it("a damaged fixture fails its test, is left as it was, and the summary counts the lookup that met it, naming validate", async () => {
      const chat = p.fixtures().find((f) => fs.readFileSync(path.join(p.dir, FIXTURES, f), "utf8").includes("what is a cassette?"))!;
      const file = path.join(p.dir, FIXTURES, chat);
      const original = fs.readFileSync(file);
      const truncated = original.subarray(0, 40);
      fs.writeFileSync(file, truncated);
      try {
        const out = await run(spec.filter(spec.chatOnly));
        expect(out.status).to.not.equal(0);
        expect(out.stdout + out.stderr).to.include(`the fixture ${file} is not valid JSON`);
        const lines = summaryLines(out);
        expect(lines, out.stdout + out.stderr).to.have.length(1);
        expect(lines[0]).to.match(/ 0 missed \(\+1 lookup\(s\) met a damaged fixture: npx langchain-vcr validate\) — mode replay_only/);
        expect(fs.readFileSync(file).equals(truncated), "not overwritten").to.equal(true);
        // a file that parses, its response edited out of shape: found, then refused; counted as met damaged, not as replayed
        const edited = JSON.stringify({ ...JSON.parse(original.toString("utf8")), response: { generation: [] } }, null, 2) + "\n";
        fs.writeFileSync(file, edited);
        const again = await run(spec.filter(spec.chatOnly));
        expect(again.status).to.not.equal(0);
        // as many replayed as when the file could not be read at all (node:test's after-hook replays one of its own)
        const replayed = (line: string) => /^langchain-vcr: (\d+) replayed/.exec(line)?.[1];
        expect(summaryLines(again)[0], again.stdout + again.stderr).to.match(
          / 0 recorded, 0 bypassed, 0 missed \(\+1 lookup\(s\) met a damaged fixture: npx langchain-vcr validate\) — mode replay_only/,
        );
        expect(replayed(summaryLines(again)[0])).to.equal(replayed(lines[0]));
        expect(fs.readFileSync(file, "utf8")).to.equal(edited);
      } finally {
        fs.writeFileSync(file, original);
      }
    });

    it("misses that share their first difference (every model call's temperature changed) are rolled up under the summary: how many, the difference, the whole suite's command", async () => {
      const before = fake.count();
      const runs = [await run([], { TEMPERATURE: "0.5" })];
      if (spec.mocha) runs.push(await run(["--parallel", "--jobs", "2"], { TEMPERATURE: "0.5" })); // the workers hand their misses over through TMPDIR
      for (const out of runs) {
        const text = out.stdout + "\n" + out.stderr;
        expect(out.status, text).to.not.equal(0);
        const missed = Number(/(\d+) missed — mode replay_only/.exec(text)?.[1]);
        expect(missed, text).to.be.at.least(3); // the chat test, the two agent tests (and a hook's question)
        expect(text).to.include(
          `langchain-vcr: ${missed} of the ${missed} misses share their first difference from the nearest recorded fixture (each test's error shows the rest):\n` +
            `  ${missed}× temperature: (absent) → 0.5\n` +
            `  If the change is meant (a prompt edited; LangChain, a provider package or langchain-vcr upgraded or downgraded), record them again with the real providers configured and review the new fixtures: `,
        );
      }
      expect(fake.count()).to.equal(before);
      const once = await run(spec.filter(spec.chatOnly), { TEMPERATURE: "0.5" }); // one miss: no roll-up
      expect(once.stdout + once.stderr)
        .to.include("temperature: (absent) → 0.5")
        .and.not.include("share their first difference");
    });

    it("tests that each miss a question of their own: the summary prints one command for them all, which as printed records them, and the suite then replays (trial 56 L3)", async () => {
      const before = fake.count();
      const runs = [await run([], { ASK_OWN: "1" })];
      if (spec.mocha) runs.push(await run(["--parallel", "--jobs", "2"], { ASK_OWN: "1" })); // the workers hand their tests over through TMPDIR
      const commands = runs.map((out) => {
        const text = out.stdout + "\n" + out.stderr;
        expect(out.status, text).to.not.equal(0);
        const line =
          /^langchain-vcr: to record the 3 tests that missed in one run, with the real providers configured: (.*), then review and commit the new fixtures\.$/m.exec(
            text,
          );
        expect(line, text).to.not.equal(null);
        return (line as RegExpExecArray)[1];
      });
      expect(new Set(commands).size, commands.join("\n")).to.equal(1); // in the main process, or handed over by workers
      expect(fake.count()).to.equal(before);
      // the command's environment first (the mode; the run's NODE_OPTIONS when it had some: vitest 5 on Node 20's polyfill)
      const words = shellWords(commands[0]);
      const env: NodeJS.ProcessEnv = {};
      while (/^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
        const [name, ...value] = (words.shift() as string).split("=");
        env[name] = value.join("=");
      }
      expect(env.LANGCHAIN_VCR_MODE).to.equal("record_or_replay");
      // the runner as this test starts it: npx's binary is its CLI script
      const args = words[0] === "npx" ? [spec.command[0], ...words.slice(2)] : words.slice(1);
      const rec = await p.run(args, { FAKE_URL: fake.openaiBaseURL, ASK_OWN: "1", ...env });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      expect(fake.count() - before, rec.stdout + rec.stderr).to.equal(3); // each test's own question, once
      const replay = await run([], { ASK_OWN: "1" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count() - before).to.equal(3);
      const one = await run(spec.filter(spec.chatOnly), { MISS: "1" }); // one test missed: its error's command is enough
      expect(one.stdout + one.stderr)
        .to.include(spec.hint)
        .and.not.include("tests that missed in one run");
    });

    it("a miss names the test and the runner's own flag; a hanging provider's timeout names the model, the hash and the file", async () => {
      const hanging = await startHangingServer();
      try {
        const out = await run(spec.filter(spec.chatAndHang), { MISS: "1", HANG_URL: hanging.url });
        const text = out.stdout + out.stderr;
        expect(out.status).to.not.equal(0); // mocha exits with the number of failures
        expect(text).to.include(`test:     ${spec.chatTitle}`);
        expect(text).to.include(spec.hint);
        expect(text).to.not.include("langchain-vcr: langchain-vcr:"); // the sink and VcrError each add the prefix once
        expect(text).to.include(`langchain-vcr: test "${spec.hangTitle}" ended while 2 live recording call(s) had not answered`);
        expect(text).to.include(`  - chat request from ChatOpenAI`).and.include(`  - chat_stream request from ChatOpenAI`); // a stream too (before: not named)
        expect(text).to.include('ChatOpenAI (model "gpt-4o-mini")');
        expect(text).to.match(/hash: {5}[0-9a-f]{64}/);
        expect(text).to.include("maxRetries: 0");
      } finally {
        await hanging.close();
      }
    });

    it("a test that passes although it caught its miss is named once, with the request and its command; a test its miss fails is not; one that fails on another error is told the miss may be why", async () => {
      const dead = "http://127.0.0.1:9/v1";
      const passedBut = `langchain-vcr: test "${spec.chatTitle}" passed, but 1 request(s) in it had no fixture, and the error was caught`;
      const count = (text: string) => text.split(passedBut).length - 1;
      fs.writeFileSync(p.side, "");
      const quiet = await run(spec.filter(spec.chatOnly), { CAUGHT: "1", FAKE_URL: dead, LANGCHAIN_VCR_QUIET: "1" });
      expect(quiet.status, quiet.stdout + quiet.stderr).to.equal(0);
      expect(count(quiet.stdout + quiet.stderr)).to.equal(0); // a note: a test may expect its miss
      const caught = await run(spec.filter(spec.chatOnly), { CAUGHT: "1", FAKE_URL: dead, LANGCHAIN_VCR_QUIET: "" });
      const text = caught.stdout + caught.stderr;
      expect(caught.status, text).to.equal(0);
      expect(p.sideLines()).to.include("caught VCR_MISS");
      expect(count(text), text).to.equal(1);
      expect(text).to.include(`  - chat request from ChatOpenAI (model "gpt-4o-mini"): a VcrMissError (mode replay_only never calls the provider)`);
      // the command carries the run's NODE_OPTIONS first, when it has some (vitest-latest's polyfill)
      expect(text).to.include(`  Fix: if the test means the request to be answered, record it: `).and.include(spec.hint);
      // record_or_replay: the miss goes live to be recorded, the provider is down, the app catches the provider's error
      fs.writeFileSync(p.side, "");
      const live = await run(spec.filter(spec.chatOnly), { CAUGHT: "1", FAKE_URL: dead, LANGCHAIN_VCR_MODE: "record_or_replay", LANGCHAIN_VCR_QUIET: "" });
      const liveText = live.stdout + live.stderr;
      expect(live.status, liveText).to.equal(0);
      expect(p.sideLines().filter((l) => l.startsWith("caught "))).to.have.length(1);
      expect(p.sideLines()).to.not.include("caught VCR_MISS");
      expect(count(liveText), liveText).to.equal(1);
      expect(liveText).to.include("sent to the provider to be recorded (mode record_or_replay), and that call failed: nothing was recorded");
      // the miss the test lets through fails it: its own error says it all
      const failing = await run(spec.filter(spec.chatOnly), { MISS: "1", FAKE_URL: dead });
      expect(failing.status).to.not.equal(0);
      expect(failing.stdout + failing.stderr)
        .to.not.include("passed, but")
        .and.not.include("whose error was caught");
      // a test that fails on what the code did without the answer (an assertion on "Sorry") is told why it may have failed
      const sorry = await run(spec.filter(spec.chatOnly), { CAUGHT: "then-fail", FAKE_URL: dead });
      const sorryText = sorry.stdout + sorry.stderr;
      expect(sorry.status).to.not.equal(0);
      expect(sorryText).to.include("expected an answer, got Sorry");
      const failedNote = `langchain-vcr: test "${spec.chatTitle}" failed, and 1 request(s) in it had no fixture whose error was caught`;
      if (spec.failureUnseen) expect(sorryText).to.not.include(failedNote);
      else expect(sorryText, sorryText).to.include(failedNote);
    });

    it("a test that times out after a miss whose error never reached it is told so, and how fake timers cause it (trial 44)", async () => {
      fs.writeFileSync(p.side, "");
      const out = await run(spec.filter(spec.chatAndHang), { HANG_URL: "http://127.0.0.1:9/v1", HANG_AFTER_MISS: "1", LANGCHAIN_VCR_QUIET: "" });
      const text = out.stdout + out.stderr;
      expect(out.status, text).to.not.equal(0);
      expect(p.sideLines()).to.include("caught before hanging");
      const note = `langchain-vcr: test "${spec.hangTitle}" timed out, and 1 request(s) in it had no fixture: the error may never have reached the test`;
      if (spec.failureUnseen) expect(text).to.not.include(note);
      else {
        // real timers here: what may have kept the error from the test, not the fake-timers advice (test/unit/caughtMisses.test.ts)
        expect(text, text).to.include(note).and.include("(code that waits after an error, on a timer or a promise that never settles");
        expect(text).to.not.include("queueMicrotask");
        expect(text).to.not.include(`test "${spec.hangTitle}" failed, and 1 request(s)`);
      }
    });

    (spec.runnerNeedsTmpdir ? it.skip : it)(
      "TMPDIR not a directory: the run replays and passes; where test processes report through it (node:test) the run is partial, said at its start and by prune",
      async () => {
        const notADir = path.join(p.dir, "tmp-is-a-file");
        fs.writeFileSync(notADir, "");
        try {
          const out = await run([], { TMPDIR: notADir });
          const text = out.stdout + out.stderr;
          expect(out.status, text).to.equal(0);
          const prune = await p.cli(["prune", "--dry-run", FIXTURES]);
          if (spec.mocha) {
            expect(prune.status, prune.stdout + prune.stderr).to.equal(0); // mocha's ledgers are not in TMPDIR
          } else {
            const reason = `the temp directory ${notADir} (TMPDIR) cannot be written (it is not a directory), so the test processes could not report which fixtures they used`;
            expect(text).to.include(`${reason}: the run is partial`).and.include("Fix: set TMPDIR to a writable directory.");
            expect(text).to.not.include("could not write this test file's usage report"); // said once, at the start, not at every write
            expect(prune.status, prune.stdout + prune.stderr).to.equal(1);
            expect(prune.stderr).to.include(`  - ${reason}\n`);
          }
        } finally {
          fs.rmSync(notADir);
        }
      },
    );

    it("a bad LANGCHAIN_VCR_MODE fails the run before any test body runs: the valid modes, no stack trace", async () => {
      fs.writeFileSync(p.side, "");
      const out = await run([], { LANGCHAIN_VCR_MODE: "bogus" });
      expect(out.status).to.not.equal(0);
      expect(out.stderr).to.include('langchain-vcr: "bogus" is not a valid mode').and.include("Valid modes are:");
      expect(out.stderr).to.not.include("langchain-vcr: langchain-vcr:");
      expect(out.stdout + out.stderr).to.not.match(/^\s+at /m);
      expect(p.sideLines()).to.deep.equal([]);
    });
  });
}

/** A command line split as a POSIX shell splits it: words, single quotes kept literally, double quotes with \\ escapes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+?)(?=\s|$|'|")|(\s+)/gy;
  let word: string | undefined;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m[4] !== undefined) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + (m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : m[3]));
  }
  if (word !== undefined) words.push(word);
  return words;
}
