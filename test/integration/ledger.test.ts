/**
 * The usage ledger and `prune`, as users run them: `mocha` (serial, `--parallel`, `--grep`,
 * `.only`, a failing test, CI shards) in a temporary project with the langchain-vcr/mocha
 * plugin, recording real ChatOpenAI calls against the loopback fake; then the CLI.
 */
import { expect } from "chai";
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../../src/canonical/json";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import { formatFixture } from "../../src/store/format";
import { builtBin } from "../helpers/built";
import { git } from "../helpers/git";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { isVcrEnv } from "../../src/internalEnv";

const ROOT = path.resolve(__dirname, "../..");
const MOCHA = path.join(ROOT, "node_modules/mocha/bin/mocha.js");
// the built package, as users load it: no ts-node in the child, ~1 s per mocha run
const PLUGIN = path.join(ROOT, "dist/cjs/mocha/index.js");
const LIBRARY = path.join(ROOT, "dist/cjs/index.js");
const LEDGERS = "node_modules/.cache/langchain-vcr/ledgers";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function childEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LANGCHAIN_VCR_QUIET: "1" };
  for (const k of Object.keys(env)) if (isVcrEnv(k) || k === "MOCHA_WORKER_ID") delete env[k];
  return { ...env, ...extra };
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, env: childEnv(env) }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** `mocha` with the plugin, as a user's .mocharc would load it. */
function mocha(cwd: string, fake: FakeProvider, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  builtBin();
  return run([MOCHA, "--require", PLUGIN, ...args], cwd, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay", ...env });
}

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return run([builtBin(), ...args], cwd, env);
}

function spec(suite: string, tests: string[], question = (test: string) => `question ${test}`): string {
  return [
    `const { Vcr } = require(${JSON.stringify(LIBRARY)});`,
    `const { ChatOpenAI } = require(${JSON.stringify(require.resolve("@langchain/openai"))});`,
    `const assert = require("node:assert");`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `async function ask(q) {`,
    `  const m = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });`,
    `  assert.equal((await m.invoke(q)).content, "echo: " + q);`,
    `}`,
    `describe(${JSON.stringify(suite)}, () => {`,
    ...tests.map((t) => `  it(${JSON.stringify(t)}, () => ask(${JSON.stringify(question(t))}));`),
    `});`,
    ``,
  ].join("\n");
}

/** A user's project: .mocharc.json with a spec glob, two spec files, three tests. */
function makeProject(): string {
  const dir = tmpDir("vcr-ledger-");
  fs.writeFileSync(path.join(dir, ".mocharc.json"), JSON.stringify({ spec: ["test/*.spec.js"], timeout: 20000 }));
  fs.mkdirSync(path.join(dir, "test"));
  fs.writeFileSync(path.join(dir, "test/a.spec.js"), spec("a", ["a1", "a2"]));
  fs.writeFileSync(path.join(dir, "test/b.spec.js"), spec("b", ["b1"]));
  return dir;
}

function clone(project: string, withLedgers: boolean): string {
  const dir = tmpDir("vcr-ledger-");
  fs.cpSync(project, dir, { recursive: true, filter: (src) => withLedgers || !src.includes(`${path.sep}node_modules`) });
  return dir;
}

/** A fixture no test uses (a test that was deleted since it recorded). */
function addDeadFixture(project: string, question = "a question from a deleted test", recordedAt = "2026-01-01T00:00:00.000Z"): string {
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: question }] };
  const hash = requestHash("chat", request);
  fs.writeFileSync(
    path.join(project, "cassettes", `${hash}.json`),
    formatFixture({
      schemaVersion: SCHEMA_VERSION,
      kind: "chat",
      hash,
      recordedAt,
      request,
      response: { generations: [{ text: "old" }] },
    }),
  );
  return `${hash}.json`;
}

function ledgerFiles(dir: string): { file: string; record: any }[] {
  const out: { file: string; record: any }[] = [];
  for (const run of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    for (const f of fs.readdirSync(path.join(dir, run)))
      out.push({ file: path.join(dir, run, f), record: JSON.parse(fs.readFileSync(path.join(dir, run, f), "utf8")) });
  }
  return out;
}

describe("usage ledger and prune (mocha and the CLI as child processes)", function () {
  this.timeout(120000);
  let fake: FakeProvider;
  let recorded: string; // a project whose three tests recorded their fixtures in one full run
  let fixtures: string[];

  before(async () => {
    fake = await startFakeProvider();
    recorded = makeProject();
    const r = await mocha(recorded, fake);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(fake.count()).to.equal(3);
    fixtures = fixtureFiles(path.join(recorded, "cassettes"));
    expect(fixtures).to.have.length(3);
  });
  after(async () => {
    await fake.close();
    removeTmpDirs();
  });

  it("a full run writes one complete ledger outside the fixture directory, listing the spec files and fixtures used", () => {
    const ledgers = ledgerFiles(path.join(recorded, LEDGERS));
    expect(ledgers).to.have.length(1);
    const { record } = ledgers[0];
    expect(record).to.include({ ledgerVersion: 1, role: "main", exitCode: 0 });
    expect(record.partial).to.deep.equal([]);
    expect(record.specFiles).to.deep.equal(["test/a.spec.js", "test/b.spec.js"]);
    expect(record.used).to.deep.equal(fixtures.map((f) => `cassettes/${f}`));
    expect(fs.readdirSync(path.join(recorded, "cassettes")).sort()).to.deep.equal(fixtures, "nothing but fixtures in the fixture dir");
  });

  it("after a full run, prune --dry-run lists exactly the unused fixture and deletes nothing; prune deletes exactly it", async () => {
    const project = clone(recorded, true);
    const dead = addDeadFixture(project);
    const dry = await cli(["prune", "--dry-run"], project);
    expect(dry.stderr).to.equal("");
    expect(dry.code).to.equal(0);
    // each with what it asked, as diff lists a fixture
    expect(dry.stdout.split("\n")[0]).to.equal(`  would remove ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"`);
    expect(dry.stdout.split("\n")[1]).to.match(
      /^langchain-vcr: would remove 1 of 4 fixture\(s\) in cassettes; kept 3 used by the last run \S+ \(started .+\), 1 process ledger\(s\)\.$/,
    );
    expect(fixtureFiles(path.join(project, "cassettes"))).to.have.length(4);
    // --check: the same list, exit 1 (a CI step that fails while a pull request leaves a fixture behind)
    const check = await cli(["prune", "--check"], project);
    expect(check.code).to.equal(1);
    expect(check.stdout.split("\n")[0]).to.equal(`  would remove ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"`);
    expect(check.stderr).to.equal(
      "langchain-vcr: prune --check failed: 1 fixture(s) no test used in the last run are still in cassettes.\n" +
        "  Fix: run npx langchain-vcr prune after a whole-suite run, and commit the removals.\n",
    );
    expect(fixtureFiles(path.join(project, "cassettes"))).to.have.length(4);

    const stats = await cli(["stats", "--json"], project);
    expect(JSON.parse(stats.stdout).unused).to.include({ count: 1, complete: true });

    // from a subdirectory: the project root's ledger and fixture directory (the runner ran there)
    const below = await cli(["prune", "--dry-run"], path.join(project, "test"));
    expect(below.code, below.stderr).to.equal(0);
    expect(below.stdout).to.include(`would remove ${path.join(project, "cassettes", dead)}`);
    expect((await cli(["stats"], path.join(project, "test"))).code).to.equal(0);
    // a package of its own inside the project (its own package.json, no ledger): never the outer project's ledger
    const inner = path.join(project, "examples/demo");
    fs.mkdirSync(path.join(inner, "cassettes"), { recursive: true });
    fs.writeFileSync(path.join(inner, "package.json"), "{}\n");
    fs.copyFileSync(path.join(project, "cassettes", dead), path.join(inner, "cassettes", dead));
    const nested = await cli(["prune", "--dry-run"], inner);
    expect(nested.code).to.equal(1);
    expect(nested.stderr).to.include("there is no usage ledger");
    fs.rmSync(path.join(project, "examples"), { recursive: true });

    const prune = await cli(["prune", "cassettes"], project);
    expect(prune.code).to.equal(0);
    expect(prune.stdout).to.match(
      /^ {2}removed cassettes\/[0-9a-f]{64}\.json {2}chat gpt-4o-mini: "a question from a deleted test"\nlangchain-vcr: removed 1 of 4 fixture\(s\) in cassettes; kept 3/,
    );
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(fixtures);
    const clean = await cli(["prune", "--check"], project);
    expect(clean.code, clean.stderr).to.equal(0);
    expect(clean.stdout).to.match(/^langchain-vcr: would remove 0 of 3 fixture\(s\)/);
  });

  it("in a git work tree, prune removes only unused fixtures git holds as committed; a new, changed or ignored one is kept and listed", async () => {
    const project = clone(recorded, true);
    const git = (...args: string[]) =>
      new Promise<void>((resolve, reject) =>
        execFile("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: project }, (e) => (e ? reject(e) : resolve())),
      );
    await git("init", "-q");
    fs.writeFileSync(path.join(project, ".gitignore"), "node_modules/\n");
    const removable = addDeadFixture(project);
    const changed = addDeadFixture(project, "a question of a test whose fixture was recorded again");
    await git("add", "-A");
    await git("commit", "-q", "-m", "fixtures");
    fs.appendFileSync(path.join(project, "cassettes", changed), " "); // recorded again, not committed yet
    // never committed: recorded while the ledger's run did not load its test file (stashed, on another branch)
    const untracked = addDeadFixture(project, "a test the last run did not load");
    const kept = [changed, untracked].map((f) => [f, fs.readFileSync(path.join(project, "cassettes", f))] as const);
    const dry = await cli(["prune", "--dry-run"], project);
    expect(dry.code, dry.stderr).to.equal(0);
    expect(dry.stdout).to.include(`  would remove ${path.join("cassettes", removable)}  chat gpt-4o-mini: "a question from a deleted test"\n`);
    for (const [f] of kept) expect(dry.stdout).to.include(`  kept ${path.join("cassettes", f)} (unused, but not committed to git, or changed since)\n`);
    expect(dry.stdout).to.include("kept 2 unused fixture(s) that git does not hold as committed");
    // a file git is told not to look at (assume-unchanged) is no evidence that it is as committed
    await git("update-index", "--assume-unchanged", `cassettes/${removable}`);
    expect((await cli(["prune", "--dry-run"], project)).stdout).to.include(
      `  kept ${path.join("cassettes", removable)} (unused, but not committed to git, or changed since)`,
    );
    await git("update-index", "--no-assume-unchanged", `cassettes/${removable}`);
    const pruned = await cli(["prune"], project);
    expect(pruned.code, pruned.stderr).to.equal(0);
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal([...fixtures, changed, untracked].sort());
    for (const [f, bytes] of kept) expect(fs.readFileSync(path.join(project, "cassettes", f)).equals(bytes), f).to.equal(true);
    // git that cannot answer (not on PATH here) inside a work tree: no evidence, every unused fixture is kept, and why
    const noGit = await cli(["prune", "--dry-run"], project, { PATH: "/nonexistent" });
    expect(noGit.code, noGit.stderr).to.equal(0);
    expect(noGit.stdout).to.include("kept all 2 unused fixture(s): git could not answer for").and.not.include("  would remove");
    // an ignored directory is listed by git as one entry: what is in it is kept too
    fs.writeFileSync(path.join(project, ".gitignore"), "node_modules/\ncassettes/\n");
    await git("rm", "-q", "--cached", "-r", "cassettes");
    await git("commit", "-q", "-m", "ignore");
    const ignored = await cli(["prune", "--dry-run"], project);
    expect(ignored.stdout, ignored.stdout).to.include("kept 2 unused fixture(s)").and.not.include("  would remove");
  });

  it("a fixture recorded after the ledger's run started is kept, committed or not: that run cannot have used it (a workspace re-recorded from its root, whose ledger is elsewhere)", async () => {
    const project = clone(recorded, true);
    git(project, "init", "-q");
    fs.writeFileSync(path.join(project, ".gitignore"), "node_modules/\n");
    const dead = addDeadFixture(project);
    const [{ record }] = ledgerFiles(path.join(project, LEDGERS));
    const after = new Date(Date.parse(record.startedAt) + 1000).toISOString();
    const since = addDeadFixture(project, "a test re-recorded from the workspace's root", after);
    git(project, "add", "-A");
    git(project, "commit", "-q", "-m", "fixtures");
    const pruned = await cli(["prune"], project);
    expect(pruned.code, pruned.stderr).to.equal(0);
    expect(pruned.stdout).to.include(`  removed ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"\n`);
    expect(pruned.stdout).to.include(`  kept ${path.join("cassettes", since)} (recorded after that run started)\n`);
    expect(pruned.stdout).to.match(/kept 1 fixture\(s\) recorded after the last run \S+ \(started .+\): it cannot have used them/);
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal([...fixtures, since].sort());

    // another directory the run used nothing of: refused as the wrong one; one holding only a fixture recorded since: kept, not refused
    const other = path.join(project, "other");
    fs.mkdirSync(other);
    fs.copyFileSync(path.join(project, "cassettes", since), path.join(other, since));
    const recent = await cli(["prune", "other"], project);
    expect(recent.code, recent.stderr).to.equal(0);
    expect(recent.stdout).to.include(`  kept ${path.join("other", since)} (recorded after that run started)\n`);
    const oldOne = addDeadFixture(project, "an old question of another suite");
    fs.renameSync(path.join(project, "cassettes", oldOne), path.join(other, oldOne));
    const wrong = await cli(["prune", "other"], project);
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.match(
      /prune refused: the last run \S+ \(started .+\) used none of the 1 fixtures in other recorded before it started\.\n {2}Is other the directory your tests use\? The run used fixtures in: cassettes\./,
    );
    expect(fixtureFiles(other)).to.deep.equal([oldOne, since].sort());
  });

  it("a test file changed since the run (another branch, an edit) makes prune refuse, naming it; nothing is deleted", async () => {
    const project = clone(recorded, true);
    const dead = addDeadFixture(project);
    const ledger = ledgerFiles(path.join(project, LEDGERS))[0].record;
    expect(Object.keys(ledger.specDigests)).to.deep.equal(["test/a.spec.js", "test/b.spec.js"]);
    fs.appendFileSync(path.join(project, "test/b.spec.js"), "// edited since the run\n");
    const r = await cli(["prune"], project);
    expect(r.code).to.equal(1);
    expect(r.stderr)
      .to.include("no longer matches the test files or the git checkout on disk")
      .and.include("1 test file(s) changed since the run (test/b.spec.js)");
    expect(fixtureFiles(path.join(project, "cassettes")))
      .to.include(dead)
      .and.have.length(4);
    // a test file added since beside the run's own (another branch's, a stash popped): the run never ran it
    fs.writeFileSync(path.join(project, "test/b.spec.js"), fs.readFileSync(path.join(recorded, "test/b.spec.js")));
    fs.writeFileSync(path.join(project, "test/c.spec.js"), spec("c", ["c1"]));
    const added = await cli(["prune"], project);
    expect(added.code).to.equal(1);
    expect(added.stderr).to.include("1 test file(s) added since the run, beside its own (test/c.spec.js)");
    fs.rmSync(path.join(project, "test/c.spec.js"));
    // a test file deleted since is a deleted test: its fixtures may go
    fs.rmSync(path.join(project, "test/b.spec.js"));
    const gone = await cli(["prune", "--dry-run"], project);
    expect(gone.code, gone.stderr).to.equal(0);
  });

  it("a run on another branch, whose test files are the same and whose app code asks another question, makes prune refuse, naming both; a commit made since on the run's branch does not (trial 37)", async () => {
    const dir = tmpDir("vcr-ledger-branch-");
    git(dir, "init", "-q", "-b", "polite");
    fs.writeFileSync(path.join(dir, ".mocharc.json"), JSON.stringify({ spec: ["test/*.spec.js"], timeout: 20000 }));
    fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules\n");
    fs.mkdirSync(path.join(dir, "test"));
    fs.mkdirSync(path.join(dir, "src"));
    // the question lives in the app's code; the test file is the same on both branches
    fs.writeFileSync(path.join(dir, "src/question.js"), `module.exports = "Answer politely: what is 2+2?";\n`);
    fs.writeFileSync(path.join(dir, "test/a.spec.js"), spec("a", ["asks"], () => "__Q__").replace(`"__Q__"`, `require("../src/question")`));
    expect((await mocha(dir, fake)).code).to.equal(0);
    const [polite] = fixtureFiles(path.join(dir, "cassettes"));
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "polite");
    git(dir, "checkout", "-q", "-b", "pirate");
    fs.writeFileSync(path.join(dir, "src/question.js"), `module.exports = "Answer like a pirate: what is 2+2?";\n`);
    expect((await mocha(dir, fake)).code).to.equal(0);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "pirate");
    const mains = ledgerFiles(path.join(dir, LEDGERS))
      .map((l) => l.record)
      .filter((r) => r.role === "main")
      .sort((x, y) => (x.writtenAt < y.writtenAt ? -1 : 1));
    const ledger = mains[mains.length - 1];
    // read as the run went, before the commit: the branch's first commit, its change uncommitted
    expect(ledger.checkout).to.deep.equal({ head: git(dir, "rev-parse", "HEAD^").trim(), branch: "pirate" });
    git(dir, "checkout", "-q", "polite");
    const refused = await cli(["prune"], dir);
    expect(refused.code, refused.stdout + refused.stderr).to.equal(1);
    expect(refused.stderr).to.include(
      `the run was on branch pirate (${ledger.checkout.head.slice(0, 7)}) and the work tree is now on branch polite (${git(dir, "rev-parse", "HEAD").trim().slice(0, 7)}): that branch's code may ask other requests than its tests did there`,
    );
    expect(fixtureFiles(path.join(dir, "cassettes"))).to.deep.equal([polite]); // still there: polite's test uses it
    // back on the run's branch, after a commit made since (the run's commit is its parent): the same line of work
    git(dir, "checkout", "-q", "pirate");
    fs.writeFileSync(path.join(dir, "NOTES.md"), "notes\n");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "notes");
    const dry = await cli(["prune", "--dry-run"], dir);
    expect(dry.code, dry.stderr).to.equal(0);
    expect(dry.stdout).to.include(`cassettes/${polite}`); // pirate's run did not use polite's fixture
    // a run at that commit, then a reset to before it: the run's commit no longer leads here
    expect((await mocha(dir, fake)).code).to.equal(0);
    git(dir, "reset", "-q", "--hard", "HEAD~1");
    const reset = await cli(["prune", "--dry-run"], dir);
    expect(reset.code).to.equal(1);
    expect(reset.stderr, reset.stderr).to.include("which does not follow it (a reset, or another commit checked out)");
  });

  it("a complete run whose tests come from the environment (one left out), test files unchanged: prune keeps what the run before used in the left-out test, once, and says why; after a second such run it goes (trial 39: PROVIDERS=bedrock)", async () => {
    const dir = tmpDir("vcr-ledger-env-");
    fs.writeFileSync(path.join(dir, ".mocharc.json"), JSON.stringify({ spec: ["test/*.spec.js"], timeout: 20000 }));
    fs.mkdirSync(path.join(dir, "test"));
    const text = spec("env", ["a", "b"]).replace(`  it("b"`, `  if (!process.env.ONLY_A) it("b"`);
    fs.writeFileSync(path.join(dir, "test/env.spec.js"), text);
    fs.writeFileSync(path.join(dir, "test/other.spec.js"), spec("other", ["o1"]));
    expect((await mocha(dir, fake)).code).to.equal(0);
    // another test file edited between the two runs: the run before no longer matches the disk, and still speaks for env.spec.js (review)
    fs.appendFileSync(path.join(dir, "test/other.spec.js"), "// edited\n");
    const dead = addDeadFixture(dir);
    const [bFixture] = fixtureFiles(path.join(dir, "cassettes")).filter((f) => fs.readFileSync(path.join(dir, "cassettes", f), "utf8").includes("question b"));
    const onlyA = await mocha(dir, fake, [], { ONLY_A: "1" });
    expect(onlyA.code, onlyA.stdout + onlyA.stderr).to.equal(0);

    const dry = await cli(["prune", "--dry-run"], dir);
    expect(dry.code, dry.stderr).to.equal(0);
    expect(dry.stdout.split("\n")[0]).to.equal(`  would remove ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"`);
    expect(dry.stdout).to.match(/\nlangchain-vcr: would remove 1 of 4 fixture\(s\) in cassettes; kept 2 used by the last run /);
    expect(dry.stdout).to.match(
      /\nlangchain-vcr: also kept 1 used in the run before \(\S+\) by 1 test\(s\) that used none in the last run, though their test files are unchanged: test\/env\.spec\.js: "env b"\.\n {2}An environment variable may have left them out/,
    );
    expect(dry.stdout).to.not.include(bFixture);

    // a second complete run without it: the test no longer uses a fixture, by two runs' word
    expect((await mocha(dir, fake, [], { ONLY_A: "1" })).code).to.equal(0);
    const again = await cli(["prune", "--dry-run"], dir);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.include(`would remove ${path.join("cassettes", bFixture)}`);
    expect(again.stdout).to.match(/\nlangchain-vcr: would remove 2 of 4 fixture\(s\)/);
    expect(again.stdout).to.not.include("used in the run before");
  });

  it("a test skipped since the run before (it.skip): prune still takes its fixture for unused, and says so, naming only that test (not one of its file edited since, nor a deleted test's fixture), with the git checkout of that file alone after a real prune (trial 41)", async () => {
    const dir = tmpDir("vcr-ledger-skip-");
    fs.writeFileSync(path.join(dir, ".mocharc.json"), JSON.stringify({ spec: ["test/*.spec.js"], timeout: 20000 }));
    fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules/\n");
    fs.mkdirSync(path.join(dir, "test"));
    fs.writeFileSync(path.join(dir, "test/s.spec.js"), spec("s", ["s1", "s2", "s3"]));
    expect((await mocha(dir, fake)).code).to.equal(0);
    const byQuestion = (q: string) =>
      fixtureFiles(path.join(dir, "cassettes")).find((f) => fs.readFileSync(path.join(dir, "cassettes", f), "utf8").includes(q))!;
    const [s2, s3] = [byQuestion("question s2"), byQuestion("question s3")];
    const dead = addDeadFixture(dir);
    git(dir, "init", "-q");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "fixtures");
    // s2 skipped; s3's prompt edited in the same file (its old fixture is an edit's, not a skipped test's)
    const edited = spec("s", ["s1", "s2", "s3"], (t) => (t === "s3" ? "question s3, edited" : `question ${t}`)).replace(`  it("s2"`, `  it.skip("s2"`);
    fs.writeFileSync(path.join(dir, "test/s.spec.js"), edited);
    const skipped = await mocha(dir, fake);
    expect(skipped.code, skipped.stdout + skipped.stderr).to.equal(0);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "skip s2, edit s3");

    const dry = await cli(["prune", "--dry-run"], dir);
    expect(dry.code, dry.stderr).to.equal(0);
    for (const f of [s2, s3, dead]) expect(dry.stdout).to.include(`would remove ${path.join("cassettes", f)}`);
    const note =
      /\nlangchain-vcr: note: 1 of the fixtures it would remove were used in the run before \(\S+\) by tests in test files that now skip tests \(\.skip, xit, this\.skip\(\), \{ skip \}\): test\/s\.spec\.js: "s s2"\.\n {2}A skipped test uses no fixture, so prune takes its fixtures for unused\. If they are to stay, un-skip the tests and run the suite before pruning\.\n/;
    expect(dry.stdout).to.match(note);
    // --check: its fix says the skipped tests' fixtures stay only if the tests are un-skipped (trial 58 M2: it said prune them)
    const check = await cli(["prune", "--check"], dir);
    expect(check.code).to.equal(1);
    expect(check.stderr).to.include(
      "  A skipped test uses no fixture, and some of these are skipped tests' (note above).\n  Fix: if they are to stay, un-skip those tests",
    );
    // a fresh clone, CI's: its one run has none before it to say whose they were; the files that skip tests are named
    const fresh = clone(dir, false);
    expect((await mocha(fresh, fake)).code).to.equal(0);
    const ci = await cli(["prune", "--check"], fresh);
    expect(ci.code).to.equal(1);
    expect(ci.stdout).to.not.include("used in the run before");
    expect(ci.stderr).to.include(
      "  A skipped test uses no fixture, and test files of the run skip tests (test/s.spec.js): some of these may be theirs.\n  Fix: if they are to stay, un-skip those tests",
    );
    const removed = await cli(["prune"], dir);
    expect(removed.code, removed.stderr).to.equal(0);
    expect(removed.stdout).to.include(`, and put them back: git checkout -- ${path.join("cassettes", s2)}.\n`);
    expect(fixtureFiles(path.join(dir, "cassettes"))).to.have.length(2); // s1's and s3's new one
  });

  it("a --grep run's ledger makes prune refuse, saying why, and nothing is deleted", async () => {
    const project = clone(recorded, true); // holds the earlier complete run too: the latest run decides
    addDeadFixture(project);
    const before = fake.count();
    const grep = await mocha(project, fake, ["--grep", "a1"]);
    expect(grep.code, grep.stderr).to.equal(0);
    expect(fake.count()).to.equal(before, "a1 replayed");
    for (const args of [["prune"], ["prune", "--dry-run"]]) {
      const r = await cli(args, project);
      expect(r.code).to.equal(1);
      expect(r.stdout).to.equal("");
      const lines = r.stderr.split("\n");
      expect(lines[0]).to.match(
        /^langchain-vcr: prune refused: the last run \S+ \(started .+\) was partial, so fixtures it did not use may belong to tests it did not run:$/,
      );
      expect(lines[1]).to.equal('  - --grep "a1" selected only some tests');
      expect(lines[2]).to.equal('  - 2 of 3 test(s) did not run (filtered by --grep/--fgrep, skipped after --bail, or blocked by a failing hook), e.g. "a a2"');
      expect(lines[3]).to.match(
        /^ {2}Fix: run the whole suite with the langchain-vcr plugin of your test runner \(mocha, vitest, jest or node:test: no name filter such as --grep/,
      );
    }
    expect(fixtureFiles(path.join(project, "cassettes"))).to.have.length(4);
    // show names the tests of the last complete run for a fixture the --grep run left out
    const b1 = fixtureFiles(path.join(project, "cassettes")).find((f) => fs.readFileSync(path.join(project, "cassettes", f), "utf8").includes("question b1"))!;
    const shown = await cli(["show", b1.slice(0, 12)], project);
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.match(
      /^ {2}used by: {2}no test in the last run \(\S+, partial\); the last complete run: test\/b\.spec\.js: "b b1" {2}\(run \S+\)$/m,
    );
    // one the --grep run used: its tests, and the run is marked partial (they may be some of those that use it)
    const a1 = fixtureFiles(path.join(project, "cassettes")).find((f) => fs.readFileSync(path.join(project, "cassettes", f), "utf8").includes("question a1"))!;
    const shownA1 = await cli(["show", a1.slice(0, 12)], project);
    expect(shownA1.stdout).to.match(/^ {2}used by: {2}test\/a\.spec\.js: "a a1" {2}\(run \S+, partial\)$/m);
  });

  it("two suites sharing the fixture directory (two mocha configs): prune keeps what the other suite's last run used, refuses while that run is partial, and forgets a suite whose test files are gone", async () => {
    const project = clone(recorded, true); // suite 1 (test/*.spec.js) ran whole
    fs.mkdirSync(path.join(project, "other"));
    fs.writeFileSync(path.join(project, "other/c.spec.js"), spec("c", ["c1", "c2"]));
    fs.writeFileSync(path.join(project, "other.mocharc.json"), JSON.stringify({ spec: ["other/*.spec.js"], timeout: 20000 }));
    const suite2 = (args: string[] = []) => mocha(project, fake, ["--config", "other.mocharc.json", ...args]);
    const s2 = await suite2();
    expect(s2.code, s2.stdout + s2.stderr).to.equal(0);
    const dead = addDeadFixture(project);
    const s1 = await mocha(project, fake); // the last run: suite 1, which knows nothing of c1 and c2
    expect(s1.code, s1.stdout + s1.stderr).to.equal(0);
    expect(fixtureFiles(path.join(project, "cassettes"))).to.have.length(6);

    const dry = await cli(["prune", "--dry-run"], project);
    expect(dry.code, dry.stderr).to.equal(0);
    expect(dry.stdout.split("\n")[0]).to.equal(`  would remove ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"`);
    expect(dry.stdout.split("\n")[1]).to.match(
      /^langchain-vcr: would remove 1 of 6 fixture\(s\) in cassettes; kept 3 used by the last run \S+ \(started .+\), 1 process ledger\(s\)\.$/,
    );
    expect(dry.stdout.split("\n")[2]).to.match(
      /^langchain-vcr: also kept 2 used by another suite sharing this directory: the last mocha run \S+ \(started \S+; test files other\/c\.spec\.js\)\.$/,
    );

    // stats counts as unused what prune would remove; show names the other suite's test
    const stats = await cli(["stats"], project);
    expect(stats.stdout).to.match(/\nunused since the last run: 1 \(run \S+, started \S+, complete; 2 more used by another suite's last run\)\n/);
    expect(JSON.parse((await cli(["stats", "--json"], project)).stdout).unused).to.include({ count: 1, otherSuites: 2, complete: true });
    const c1 = fixtureFiles(path.join(project, "cassettes")).find((f) => fs.readFileSync(path.join(project, "cassettes", f), "utf8").includes("question c1"))!;
    const show = await cli(["show", c1.slice(0, 12)], project);
    expect(show.code, show.stderr).to.equal(0);
    expect(show.stdout).to.match(
      /^ {2}used by: {2}no test in the last run \(\S+\); another suite sharing this directory: other\/c\.spec\.js: "c c1" {2}\(run \S+\)$/m,
    );

    // the other suite's last run is partial (--grep): what neither run used may be its tests'
    expect((await suite2(["--grep", "c1"])).code).to.equal(0);
    expect((await mocha(project, fake)).code).to.equal(0);
    const refused = await cli(["prune"], project);
    expect(refused.code).to.equal(1);
    expect(refused.stderr.split("\n")[0]).to.match(
      /^langchain-vcr: prune refused: another suite uses cassettes too: mocha run \S+ \(started \S+; test files other\/c\.spec\.js\)\. Its last run was partial, so fixtures no run used may be its tests':$/,
    );
    expect(refused.stderr).to.include('  - --grep "c1" selected only some tests\n');
    expect(refused.stderr).to.match(
      /\n {2}Fix: run that suite whole too \(mocha, no filter\), then run langchain-vcr prune again\. If that suite is gone, delete its ledgers: rm -r "node_modules\/\.cache\/langchain-vcr\/ledgers\/\S+" "node_modules\/\.cache\/langchain-vcr\/ledgers\/\S+"\n/,
    );
    expect(fixtureFiles(path.join(project, "cassettes"))).to.have.length(6);
    // a suite that uses no fixtures here (a smoke test with no model call), partial or not, never blocks prune
    fs.mkdirSync(path.join(project, "scripts"));
    fs.writeFileSync(path.join(project, "scripts/smoke.spec.js"), `describe("smoke", () => { it("runs", () => {}); it("skipped", () => {}); });\n`);
    fs.writeFileSync(path.join(project, "smoke.mocharc.json"), JSON.stringify({ spec: ["scripts/*.spec.js"] }));
    const smoke = await mocha(project, fake, ["--config", "smoke.mocharc.json", "--grep", "runs"]);
    expect(smoke.code, smoke.stdout + smoke.stderr).to.equal(0);
    expect(smoke.stdout).to.include("1 passing").and.not.include("question");
    expect((await suite2()).code).to.equal(0);
    expect((await mocha(project, fake)).code).to.equal(0);
    const statsNow = await cli(["stats", "--json"], project);
    expect(JSON.parse(statsNow.stdout).unused).to.include({ otherSuites: 2, otherSuitePartial: false });
    const unblocked = await cli(["prune", "--dry-run"], project);
    expect(unblocked.code, unblocked.stderr).to.equal(0);
    expect(unblocked.stdout).to.include("also kept 2 used by another suite");
    // the other suite's last run partial again
    expect(fixtureFiles(path.join(project, "cassettes"))).to.have.length(6);

    expect((await suite2(["--grep", "c1"])).code).to.equal(0);
    expect((await mocha(project, fake)).code).to.equal(0);
    expect((await cli(["prune"], project)).code).to.equal(1);
    // its test files gone, the other suite uses nothing: its fixtures are unused
    fs.rmSync(path.join(project, "other"), { recursive: true });
    const pruned = await cli(["prune"], project);
    expect(pruned.code, pruned.stderr).to.equal(0);
    expect(pruned.stdout).to.match(/langchain-vcr: removed 3 of 6 fixture\(s\) in cassettes; kept 3 used by the last run/);
    expect(pruned.stdout).not.to.include("another suite");
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(fixtures);
  });

  /** A workspace whose packages api (tests api1, api2) and worker (worker1) share cassettes/ at its root; each package's suite run in it, worker's first. */
  async function workspaceRun(env: NodeJS.ProcessEnv = {}, ws = tmpDir("vcr-ledger-ws-")): Promise<{ ws: string; api: string; worker: string }> {
    fs.writeFileSync(path.join(ws, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
    fs.mkdirSync(path.join(ws, "cassettes"));
    const pkg = (name: string, tests: string[]) => {
      const dir = path.join(ws, "packages", name);
      fs.mkdirSync(path.join(dir, "test"), { recursive: true });
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name }));
      fs.writeFileSync(path.join(dir, ".mocharc.json"), JSON.stringify({ spec: ["test/*.spec.js"], timeout: 20000 }));
      fs.writeFileSync(path.join(dir, "test", `${name}.spec.js`), spec(name, tests).replace('dir: "cassettes"', 'dir: "../../cassettes"'));
      return dir;
    };
    const api = pkg("api", ["api1", "api2"]);
    const worker = pkg("worker", ["worker1"]);
    for (const dir of [worker, api]) {
      const r = await mocha(dir, fake, [], env); // the last run: api's, which knows nothing of worker's test
      expect(r.code, r.stdout + r.stderr).to.equal(0);
    }
    return { ws, api, worker };
  }

  it("a workspace whose packages share one fixture directory at its root, each with its own ledger: prune from a package keeps what the other package's last run used; at the root, where no run wrote a ledger, it refuses and says where to run it (trial 36b)", async () => {
    const { ws, api, worker } = await workspaceRun();
    const dead = addDeadFixture(ws);
    expect(fixtureFiles(path.join(ws, "cassettes"))).to.have.length(4);
    const workerFixture = fixtureFiles(path.join(ws, "cassettes")).find((f) =>
      fs.readFileSync(path.join(ws, "cassettes", f), "utf8").includes("question worker1"),
    )!;

    const fromApi = await cli(["prune", "--dry-run", "../../cassettes"], api);
    expect(fromApi.code, fromApi.stderr).to.equal(0);
    expect(fromApi.stdout.split("\n")[0]).to.equal(`  would remove ${path.join(ws, "cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"`);
    expect(fromApi.stdout).to.match(/\nlangchain-vcr: would remove 1 of 4 fixture\(s\) in \S+; kept 2 used by the last run /);
    expect(fromApi.stdout).to.match(
      /\nlangchain-vcr: also kept 1 used by another suite sharing this directory: the last mocha run \S+ \(started \S+; test files \.\.\/worker\/test\/worker\.spec\.js\)\.\n/,
    );
    const show = await cli(["show", workerFixture.slice(0, 12), "--dir", "../../cassettes"], api);
    expect(show.stdout).to.match(/another suite sharing this directory: \.\.\/worker\/test\/worker\.spec\.js: "worker worker1"/);

    // at the root no run wrote a ledger: a package that never ran on this machine would have none either, and its fixtures would look unused
    const fromRoot = await cli(["prune"], ws);
    expect(fromRoot.code).to.equal(1);
    expect(fromRoot.stderr).to.include(
      `langchain-vcr: prune refused: there is no usage ledger in ${path.join("node_modules", ".cache", "langchain-vcr", "ledgers")}`,
    );
    expect(fromRoot.stderr).to.include(
      `  The runs of ${path.join("packages", "api")}, ${path.join("packages", "worker")} used cassettes and wrote their ledgers there: run prune in one of them (cd ${path.join("packages", "api")} && npx langchain-vcr prune ../../cassettes),\n`,
    );
    expect(fixtureFiles(path.join(ws, "cassettes"))).to.have.length(4);
    const pruned = await cli(["prune", "../../cassettes"], api);
    expect(pruned.code, pruned.stderr).to.equal(0);
    expect(fixtureFiles(path.join(ws, "cassettes"))).to.have.length(3);

    // the other package's last run partial (--grep): what no run used may be its tests'
    addDeadFixture(ws);
    expect((await mocha(worker, fake, ["--grep", "worker1"])).code).to.equal(0);
    const refused = await cli(["prune", "../../cassettes"], api);
    expect(refused.code).to.equal(1);
    expect(refused.stderr.split("\n")[0]).to.match(
      /^langchain-vcr: prune refused: another suite uses \S+ too: mocha run \S+ \(started \S+; test files \.\.\/worker\/test\/worker\.spec\.js\)\. Its last run was partial/,
    );
    expect(fixtureFiles(path.join(ws, "cassettes"))).to.have.length(4);
  });

  it("the same workspace with one LANGCHAIN_VCR_LEDGER_DIR for every package: prune at the root reads each run's paths from where it ran, keeps what both used and removes only the dead fixture (trial 36b; before: it refused, every fixture used in /cassettes)", async () => {
    const top = tmpDir("vcr-ledger-shared-"); // the git work tree, the workspace a directory inside it
    git(top, "init", "-q");
    const ws = path.join(top, "mono");
    fs.mkdirSync(ws);
    const shared = { LANGCHAIN_VCR_LEDGER_DIR: path.join(ws, "ledgers") };
    await workspaceRun(shared, ws);
    const dead = addDeadFixture(ws);
    git(top, "add", "-A");
    git(top, "commit", "-qm", "fixtures");
    expect(fixtureFiles(path.join(ws, "cassettes"))).to.have.length(4);

    const dry = await cli(["prune", "--dry-run"], ws, shared);
    expect(dry.code, dry.stdout + dry.stderr).to.equal(0);
    expect(dry.stdout.split("\n")[0]).to.equal(`  would remove cassettes/${dead}  chat gpt-4o-mini: "a question from a deleted test"`);
    expect(dry.stdout).to.match(/\nlangchain-vcr: would remove 1 of 4 fixture\(s\) in cassettes; kept 2 used by the last run /);
    expect(dry.stdout).to.match(
      /\nlangchain-vcr: also kept 1 used by another suite sharing this directory: the last mocha run \S+ \(started \S+; test files packages\/worker\/test\/worker\.spec\.js\)\.\n/,
    );
    // stats --by-test joins the other suite's last run (before: the last suite's tests only)
    const byTest = await cli(["stats", "--by-test"], ws, shared);
    expect(byTest.stdout).to.include("by test (last run, and the last run of 1 other suite(s) sharing this directory):\n");
    for (const [spec, title] of [
      ["packages/api/test/api.spec.js", "api api1"],
      ["packages/api/test/api.spec.js", "api api2"],
      ["packages/worker/test/worker.spec.js", "worker worker1"],
    ])
      expect(byTest.stdout).to.match(new RegExp(`\\n  ${spec.replace(/[./]/g, "\\$&")}\\n(    .*\\n|      .*\\n)*    ${title}: 1 fixture\\(s\\)\\n`));
    const pruned = await cli(["prune"], ws, shared);
    expect(pruned.code, pruned.stderr).to.equal(0);
    expect(fixtureFiles(path.join(ws, "cassettes"))).to.not.include(dead);
    expect(fixtureFiles(path.join(ws, "cassettes"))).to.have.length(3);
  });

  for (const parallel of [false, true]) {
    it(`two test files with a test of the same title${parallel ? " (--parallel)" : ""}: show and stats --by-test name each fixture's own test file`, async () => {
      const project = tmpDir("vcr-ledger-");
      fs.writeFileSync(path.join(project, ".mocharc.json"), JSON.stringify({ spec: ["test/*.spec.js"], timeout: 20000 }));
      fs.mkdirSync(path.join(project, "test"));
      fs.writeFileSync(
        path.join(project, "test/billing.spec.js"),
        spec("checkout", ["works"], () => "billing question"),
      );
      fs.writeFileSync(
        path.join(project, "test/shipping.spec.js"),
        spec("checkout", ["works"], () => "shipping question"),
      );
      const r = await mocha(project, fake, parallel ? ["--parallel", "--jobs", "2"] : []);
      expect(r.code, r.stdout + r.stderr).to.equal(0);
      const cassettes = path.join(project, "cassettes");
      const byQuestion = (q: string) => fixtureFiles(cassettes).find((f) => fs.readFileSync(path.join(cassettes, f), "utf8").includes(q))!;
      for (const [question, file] of [
        ["billing question", "test/billing.spec.js"],
        ["shipping question", "test/shipping.spec.js"],
      ]) {
        const shown = await cli(["show", byQuestion(question).slice(0, 12)], project);
        expect(shown.code, shown.stderr).to.equal(0);
        expect(shown.stdout).to.match(new RegExp(`^ {2}used by: {2}${file.replace(/[./]/g, "\\$&")}: "checkout works" {2}\\(run \\S+\\)$`, "m"));
      }
      const stats = await cli(["stats", "--by-test", "--json"], project);
      expect(JSON.parse(stats.stdout).byTest).to.deep.equal({
        "test/billing.spec.js": { "checkout works": [path.join(cassettes, byQuestion("billing question"))] },
        "test/shipping.spec.js": { "checkout works": [path.join(cassettes, byQuestion("shipping question"))] },
      });
      const text = await cli(["stats", "--by-test"], project);
      expect(text.stdout).to.contain(
        [
          "by test (last run):",
          "  test/billing.spec.js",
          "    checkout works: 1 fixture(s)",
          `      ${path.join("cassettes", byQuestion("billing question"))}`,
          "  test/shipping.spec.js",
          "    checkout works: 1 fixture(s)",
          `      ${path.join("cassettes", byQuestion("shipping question"))}`,
        ].join("\n"),
      );
    });
  }

  it(".only, a failing test, and spec files named on the command line each make the run partial", async () => {
    const only = clone(recorded, false);
    fs.writeFileSync(path.join(only, "test/a.spec.js"), spec("a", ["a1", "a2"]).replace('it("a1"', 'it.only("a1"'));
    const failing = clone(recorded, false);
    fs.writeFileSync(path.join(failing, "test/c.spec.js"), `describe("c", () => { it("c fails", () => { throw new Error("boom"); }); });\n`);
    const named = clone(recorded, false);
    const [o, f, n] = await Promise.all([mocha(only, fake), mocha(failing, fake), mocha(named, fake, ["test/b.spec.js"])]);
    expect(o.code, o.stderr).to.equal(0);
    expect(f.code).to.equal(1);
    expect(n.code, n.stderr).to.equal(0);
    const [po, pf, pn] = await Promise.all([cli(["prune"], only), cli(["prune"], failing), cli(["prune"], named)]);
    expect([po.code, pf.code, pn.code]).to.deep.equal([1, 1, 1]);
    expect(po.stderr).to.include("  - .only selected exclusive tests in test/a.spec.js\n");
    expect(pf.stderr, pf.stderr).to.include("  - the run failed: mocha exited with code 1\n");
    expect(pf.stderr).to.include('  - 1 test(s) failed (first: "c c fails")\n');
    expect(pn.stderr).to.include("  - spec files were named on the command line (test/b.spec.js), so this may be a subset of the suite");
    for (const p of [only, failing, named]) expect(fixtureFiles(path.join(p, "cassettes"))).to.deep.equal(fixtures);
    // stats gives no count of unused fixtures after a partial run: those of the tests it left out are among them
    const stats = await cli(["stats"], named);
    expect(stats.code, stats.stderr).to.equal(0);
    expect(stats.stdout).to.match(
      /\nunused since the last run: unknown \(run \S+, started \S+, was partial: spec files were named on the command line \(test\/b\.spec\.js\)[^\n]*; \d+ fixture\(s\) it did not use may belong to tests it did not run\)\n/,
    );
  });

  it("a fixture used only by a spec file's root-level after() hook is in the ledger: prune keeps it", async () => {
    const project = clone(recorded, false);
    fs.writeFileSync(path.join(project, "test/d.spec.js"), spec("d", ["d1"]) + `after(() => ask("question of a root-level after hook"));\n`);
    const r = await mocha(project, fake);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    const all = fixtureFiles(path.join(project, "cassettes"));
    expect(all).to.have.length(5);
    const [ledger] = ledgerFiles(path.join(project, LEDGERS)).map((l) => l.record);
    expect(ledger.used).to.deep.equal(all.map((f) => `cassettes/${f}`));
    const dry = await cli(["prune", "--dry-run"], project);
    expect(dry.code, dry.stderr).to.equal(0);
    expect(dry.stdout).to.not.include("would remove cassettes");
    expect(dry.stdout).to.match(/would remove 0 of 5 fixture\(s\)/);
  });

  it("a run killed before it exits (after an earlier complete run) makes prune refuse: what it recorded is kept", async () => {
    const project = clone(recorded, true); // the earlier complete run's ledger is there: it never saw c1
    fs.writeFileSync(
      path.join(project, "test/c.spec.js"),
      spec("c", ["c1"]).replace(
        `it("c1", () => ask("question c1"));`,
        `it("c1", async () => { await ask("question c1"); process.kill(process.pid, "SIGKILL"); });`,
      ),
    );
    const before = fake.count();
    const killed = await mocha(project, fake);
    expect(killed.code, killed.stderr).to.not.equal(0);
    expect(fake.count() - before).to.equal(1, "c1 recorded before the kill");
    const all = fixtureFiles(path.join(project, "cassettes"));
    expect(all).to.have.length(4);
    for (const args of [["prune"], ["prune", "--dry-run"]]) {
      const r = await cli(args, project);
      expect(r.code, r.stdout).to.equal(1);
      expect(r.stderr).to.include("  - the run did not finish (mocha is still running, or was killed)\n");
    }
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(all);
  });

  it("--parallel stopped by Ctrl-C (SIGINT to mocha's main process, which then exits without finishing the run) makes prune refuse: the interrupted file's fixtures are kept", async () => {
    const project = clone(recorded, true); // the earlier complete run's ledger is there too
    const started = path.join(project, "c-started");
    fs.writeFileSync(
      path.join(project, "test/c.spec.js"),
      `describe("c", () => { it("c1", () => { require("node:fs").writeFileSync(${JSON.stringify(started)}, ""); return new Promise((r) => setTimeout(r, 60000)); }); });\n`,
    );
    builtBin();
    const child = spawn(process.execPath, [MOCHA, "--require", PLUGIN, "--parallel", "--jobs", "2"], {
      cwd: project,
      env: childEnv({ FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" }),
      stdio: "ignore",
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    for (let i = 0; i < 600 && !fs.existsSync(started); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(started), "c1 started").to.equal(true);
    child.kill("SIGINT");
    expect(await exited, "the premise: mocha --parallel exits 0 after SIGINT, without finishing the run").to.equal(0);
    const all = fixtureFiles(path.join(project, "cassettes"));
    for (const args of [["prune"], ["prune", "--dry-run"]]) {
      const r = await cli(args, project);
      expect(r.code, r.stdout).to.equal(1);
      expect(r.stderr, r.stderr).to.include(`  - the run was stopped before mocha finished it (Ctrl-C or a signal; mocha --parallel exits 0 then)`);
    }
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(all);
  });

  it("a dry run (dry-run in .mocharc, or --dry-run) makes prune refuse, with the reason once", async () => {
    const inConfig = clone(recorded, true);
    const rc = path.join(inConfig, ".mocharc.json");
    fs.writeFileSync(rc, JSON.stringify({ ...JSON.parse(fs.readFileSync(rc, "utf8")), "dry-run": true }));
    const onArgv = clone(recorded, true);
    const before = fake.count();
    const [c, a] = await Promise.all([mocha(inConfig, fake), mocha(onArgv, fake, ["--dry-run"])]);
    expect([c.code, a.code], c.stderr + a.stderr).to.deep.equal([0, 0]);
    expect(fake.count()).to.equal(before, "no test body ran");
    for (const project of [inConfig, onArgv]) {
      const latest = ledgerFiles(path.join(project, LEDGERS))
        .map((l) => l.record)
        .sort((x, y) => x.startedAt.localeCompare(y.startedAt))
        .pop();
      expect(latest.partial).to.deep.equal(["--dry-run ran no tests"]);
      const r = await cli(["prune"], project);
      expect(r.code, r.stdout).to.equal(1);
      expect(r.stderr).to.include("  - --dry-run ran no tests\n");
      expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(fixtures);
    }
  });

  it("--parallel: every worker writes its own ledger and prune merges them (replays count as used)", async () => {
    const project = clone(recorded, false);
    const dead = addDeadFixture(project);
    const before = fake.count();
    const par = await mocha(project, fake, ["--parallel", "--jobs", "2"]);
    expect(par.code, par.stdout + par.stderr).to.equal(0);
    expect(fake.count()).to.equal(before, "everything replayed");
    const ledgers = ledgerFiles(path.join(project, LEDGERS)).map((l) => l.record);
    const main = ledgers.filter((l) => l.role === "main");
    const workers = ledgers.filter((l) => l.role === "worker");
    expect(main).to.have.length(1);
    expect(main[0].used).to.deep.equal([], "the main process runs no tests under --parallel");
    expect(workers.length).to.be.within(1, 2);
    expect(new Set(ledgers.map((l) => l.runId)).size).to.equal(1, "workers joined the main process's run");
    expect(workers.flatMap((w) => w.used).sort()).to.deep.equal(fixtures.map((f) => `cassettes/${f}`));
    expect(workers.flatMap((w) => w.specFiles).sort()).to.deep.equal(["test/a.spec.js", "test/b.spec.js"]);
    const prune = await cli(["prune"], project);
    expect(prune.code, prune.stderr).to.equal(0);
    expect(prune.stdout).to.include(`  removed ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"\n`);
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(fixtures);
  });

  it("a ledger directory that cannot be written: the run passes and says so once, with the fix (serial and --parallel)", async () => {
    const project = clone(recorded, false);
    const notADir = path.join(project, "ledgers-is-a-file");
    fs.writeFileSync(notADir, "");
    for (const args of [[], ["--parallel", "--jobs", "2"]]) {
      const r = await mocha(project, fake, args, { LANGCHAIN_VCR_LEDGER_DIR: notADir, CI: "true" });
      expect(r.code, r.stdout + r.stderr).to.equal(0);
      const said = r.stderr.split(`could not write the usage ledger in ${notADir}`).length - 1;
      expect(said, r.stderr).to.be.within(1, args.length ? 3 : 1); // once per process: the main one, and each --parallel worker
      expect(r.stderr).to.include("Fix: set LANGCHAIN_VCR_LEDGER_DIR to a writable directory (and give prune the same --ledger-dir).");
    }
  });

  it("--parallel with TMPDIR not a directory: the run passes (the summary's counts are left out, said once per process), the ledgers are written and prune judges them", async () => {
    const project = clone(recorded, false);
    const dead = addDeadFixture(project);
    const notADir = path.join(project, "tmp-is-a-file");
    fs.writeFileSync(notADir, "");
    const par = await mocha(project, fake, ["--parallel", "--jobs", "2"], { TMPDIR: notADir, CI: "true" });
    expect(par.code, par.stdout + par.stderr).to.equal(0);
    expect(par.stdout).to.not.include("failing");
    const warned = par.stderr.split("could not write this test process's counts for the run's summary").length - 1;
    expect(warned, par.stderr).to.be.within(1, 2); // one per worker
    expect(par.stderr).to.include("Fix: set TMPDIR to a writable directory.");
    // not a summary of zeros: the counts are unknown, and it says why
    expect(par.stdout).to.not.match(/langchain-vcr: \d+ replayed/);
    expect(par.stdout).to.include(`langchain-vcr: the test processes' counts are unknown: the temp directory ${notADir} (TMPDIR)`);
    const prune = await cli(["prune"], project);
    expect(prune.code, prune.stderr).to.equal(0);
    expect(prune.stdout).to.include(`  removed ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"\n`);
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(fixtures);
  });

  it("CI shards sharing LANGCHAIN_VCR_RUN_ID: prune refuses until every shard's ledger is copied in, then merges them", async () => {
    const project = clone(recorded, false);
    const dead = addDeadFixture(project);
    const shard = (i: number, file: string) =>
      mocha(project, fake, ["--no-config", "--timeout", "20000", file], {
        LANGCHAIN_VCR_RUN_ID: "ci-run-42",
        LANGCHAIN_VCR_SHARD: `${i}/2`,
        LANGCHAIN_VCR_LEDGER_DIR: `shard-${i}-ledgers`,
      });
    const [s1, s2] = await Promise.all([shard(1, "test/a.spec.js"), shard(2, "test/b.spec.js")]);
    expect([s1.code, s2.code], s1.stderr + s2.stderr).to.deep.equal([0, 0]);
    const merged = path.join(project, "merged-ledgers");
    fs.cpSync(path.join(project, "shard-1-ledgers"), merged, { recursive: true });
    const partial = await cli(["prune", "--ledger-dir", "merged-ledgers"], project);
    expect(partial.code).to.equal(1);
    expect(partial.stderr).to.include(
      `  - no ledger from shard 2/2 of run ci-run-42: give every shard of a run the same LANGCHAIN_VCR_RUN_ID, and copy every shard's ledger files into ${merged} before pruning\n` +
        `  Fix: as said above (run each missing shard with the run's LANGCHAIN_VCR_RUN_ID, or copy its ledger files in), then run langchain-vcr prune again.\n`,
    );
    expect(partial.stderr).to.not.include("run the whole suite"); // the suite ran whole, in shards
    fs.cpSync(path.join(project, "shard-2-ledgers"), merged, { recursive: true });
    const prune = await cli(["prune", "--ledger-dir", "merged-ledgers"], project);
    expect(prune.code, prune.stderr).to.equal(0);
    expect(prune.stdout).to.include(`  removed ${path.join("cassettes", dead)}  chat gpt-4o-mini: "a question from a deleted test"\n`);
    expect(prune.stdout).to.match(/kept 3 used by the last run ci-run-42 .*, 2 process ledger\(s\), 2 shard\(s\)\.\n$/);
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(fixtures);
  });

  it("with no ledger at all, prune refuses", async () => {
    const project = clone(recorded, false);
    const r = await cli(["prune"], project);
    expect(r.code).to.equal(1);
    expect(r.stderr.split("\n")[0]).to.equal(
      `langchain-vcr: prune refused: there is no usage ledger in ${LEDGERS}, so nothing says which fixtures are in use.`,
    );
    expect(fixtureFiles(path.join(project, "cassettes"))).to.deep.equal(fixtures);
  });
});
