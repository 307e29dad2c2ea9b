/**
 * `langchain-vcr diff` as users run it: the built CLI in a child process, in a temporary git
 * repository whose fixtures were recorded by real clients against the loopback fake (the
 * prompt-edit case by mocha with the langchain-vcr/mocha plugin, then `prune`).
 */
import { expect } from "chai";
import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { Vcr } from "../../src/index";
import type { Fixture } from "../../src/store/fixture";
import { ROOT } from "../helpers/built";
import { cli } from "../helpers/cliRun";
import { git } from "../helpers/git";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { OpenAIEmbeddings } from "@langchain/openai";
import { fixtureFiles, tmpDir } from "../helpers/tmp";
import { defaultLedgerDir, writeLedger } from "../../src/runner/ledgerFiles";
import { ledgerRecord } from "../helpers/ledgerRecord";

const MOCHA = path.join(ROOT, "node_modules/mocha/bin/mocha.js");
const PLUGIN = path.join(ROOT, "dist/cjs/mocha/index.js");
const LIBRARY = path.join(ROOT, "dist/cjs/index.js");

function repo(): string {
  const dir = tmpDir("vcr-diff-");
  git(dir, "init", "-q");
  return dir;
}

/** One spec file whose tests each ask the fake one question through ChatOpenAI with vcr.cache. */
function writeSpec(dir: string, questions: Record<string, string>): void {
  fs.mkdirSync(path.join(dir, "test"), { recursive: true });
  fs.writeFileSync(path.join(dir, ".mocharc.json"), JSON.stringify({ spec: ["test/*.spec.js"], timeout: 20000 }));
  const tests = Object.entries(questions).map(([title, q]) => `  it(${JSON.stringify(title)}, () => ask(${JSON.stringify(q)}));`);
  fs.writeFileSync(
    path.join(dir, "test/ask.spec.js"),
    [
      `const { Vcr } = require(${JSON.stringify(LIBRARY)});`,
      `const { ChatOpenAI } = require(${JSON.stringify(require.resolve("@langchain/openai"))});`,
      `const vcr = new Vcr({ dir: "cassettes" });`,
      `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q);`,
      `describe("ask", () => {`,
      ...tests,
      `});`,
      ``,
    ].join("\n"),
  );
}

function mocha(dir: string, fake: FakeProvider): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay", LANGCHAIN_VCR_QUIET: "1" };
  delete env.LANGCHAIN_VCR_LEDGER_DIR;
  return new Promise((resolve) => {
    execFile(process.execPath, [MOCHA, "--require", PLUGIN], { cwd: dir, env, timeout: 60000 }, (err) => resolve(err ? Number(err.code ?? 1) : 0));
  });
}

describe("cli: langchain-vcr diff", function () {
  this.timeout(90000);
  let fake: FakeProvider;
  useFakeAndDir((f) => (fake = f));

  it("a one-word prompt edit plus prune is one paired change, in text, markdown and JSON", async () => {
    const dir = repo();
    writeSpec(dir, { capital: "What is the capital of France?", prime: "Name one prime number." });
    expect(await mocha(dir, fake)).to.equal(0);
    const [france] = fixtureFiles(path.join(dir, "cassettes")).filter((f) => fs.readFileSync(path.join(dir, "cassettes", f), "utf8").includes("France"));
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "fixtures");
    writeSpec(dir, { capital: "What is the capital of Spain?", prime: "Name one prime number." });
    expect(await mocha(dir, fake)).to.equal(0);
    // before prune: the new fixture is added, as an edit of the old one, which is still there (not of the unchanged prime one)
    const [spainEarly] = fixtureFiles(path.join(dir, "cassettes")).filter((f) => fs.readFileSync(path.join(dir, "cassettes", f), "utf8").includes("Spain"));
    const early = await cli(["diff"], dir);
    expect(early.stdout).to.contain("0 changed, 1 added, 0 removed, 0 re-recorded");
    expect(early.stdout).to.contain(
      `added    cassettes/${spainEarly}  chat gpt-4o-mini: "What is the capital of Spain?"\n` +
        `  an edit of cassettes/${france}, which is still here, unchanged: once no test uses it, langchain-vcr prune removes it\n` +
        `  request messages[0].content (user): What is the capital of [-France?-] {+Spain?+}\n` +
        `  response generations[0].text: echo: What is the capital of [-France?-] {+Spain?+}\n`,
    );
    const earlyMd = (await cli(["diff", "--format", "markdown"], dir)).stdout;
    expect(earlyMd).to.match(
      /\| added \| chat \| gpt-4o-mini: "What is the capital of Spain\?" \| `messages\[0\]\.content \(user\)` \(an edit: see below\) \|/,
    );
    expect(earlyMd).to.contain(`_an edit of cassettes/${france}, which is still here, unchanged: once no test uses it, langchain-vcr prune removes it_`);
    expect(earlyMd).to.contain("- request `messages[0].content` (user): What is the capital of ~~France?~~ **Spain?**");
    const earlyJson = JSON.parse((await cli(["diff", "--format", "json"], dir)).stdout);
    expect(earlyJson.added).to.deep.equal([`cassettes/${spainEarly}`]);
    expect(earlyJson.addedEdits).to.have.length(1);
    expect(earlyJson.addedEdits[0]).to.deep.include({ added: `cassettes/${spainEarly}`, editOf: `cassettes/${france}` });
    expect(earlyJson.addedEdits[0].request).to.deep.equal([
      { path: "messages[0].content", recorded: "What is the capital of France?", requested: "What is the capital of Spain?" },
    ]);
    const pruned = await cli(["prune"], dir);
    expect(pruned.code, pruned.stderr).to.equal(0);
    expect(pruned.stdout).to.contain(`removed cassettes/${france}`);
    const [spain] = fixtureFiles(path.join(dir, "cassettes")).filter((f) => fs.readFileSync(path.join(dir, "cassettes", f), "utf8").includes("Spain"));
    const status = git(dir, "status", "--porcelain");

    const fromRoot = await cli(["diff"], dir);
    expect(fromRoot.code, fromRoot.stderr).to.equal(0);
    expect(fromRoot.stdout).to.contain("langchain-vcr diff: cassettes (HEAD → working tree): 1 changed, 0 added, 0 removed, 0 re-recorded");
    expect(fromRoot.stdout).to.contain(`  cassettes/${france} → cassettes/${spain}`);
    expect(fromRoot.stdout).to.contain("  request messages[0].content (user): What is the capital of [-France?-] {+Spain?+}");
    expect(fromRoot.stdout).to.contain("  response generations[0].text: echo: What is the capital of [-France?-] {+Spain?+}");
    const sub = await cli(["diff", "../cassettes"], path.join(dir, "test"));
    expect(sub.stdout).to.equal(fromRoot.stdout);
    // no test/cassettes: the default is the work tree's top-level cassettes
    expect((await cli(["diff"], path.join(dir, "test"))).stdout).to.equal(fromRoot.stdout);

    const md = await cli(["diff", "--format", "markdown"], dir);
    expect(md.code).to.equal(0);
    expect(md.stdout).to.contain("| | kind | request | changed fields | fixture |");
    expect(md.stdout).to.match(
      /\| changed \| chat \| gpt-4o-mini: "What is the capital of Spain\?" \| `messages\[0\]\.content \(user\)` \| `cassettes\/[0-9a-f]{12}….json` → `cassettes\/[0-9a-f]{12}….json` \|/,
    );
    expect(md.stdout).to.contain("- request `messages[0].content` (user): What is the capital of ~~France?~~ **Spain?**");

    const js = await cli(["diff", "cassettes", "--format=json"], dir);
    const report = JSON.parse(js.stdout);
    expect(report.added).to.deep.equal([]);
    expect(report.removed).to.deep.equal([]);
    expect(report.rerecorded).to.deep.equal([]);
    expect(report.changed).to.have.length(1);
    expect(report.changed[0]).to.deep.include({ before: `cassettes/${france}`, after: `cassettes/${spain}` });
    expect(report.changed[0].request).to.deep.equal([
      { path: "messages[0].content", recorded: "What is the capital of France?", requested: "What is the capital of Spain?" },
    ]);
    expect(report.changed[0].response.map((d: { path: string }) => d.path)).to.include("generations[0].text");
    expect(git(dir, "status", "--porcelain")).to.equal(status); // diff wrote nothing

    // the test behind a changed fixture, from the ledger of the mocha run
    const show = await cli(["show", spain.slice(0, 12)], dir);
    expect(show.code, show.stderr).to.equal(0);
    expect(show.stdout).to.match(/^ {2}used by: {2}test\/ask\.spec\.js: "ask capital" {2}\(run \S+\)$/m);
    const stats = await cli(["stats", "--by-test"], dir);
    expect(stats.stdout).to.contain(
      `by test (last run):\n  test/ask.spec.js\n    ask capital: 1 fixture(s)\n      cassettes/${spain}\n    ask prime: 1 fixture(s)\n`,
    );
    const statsJson = JSON.parse((await cli(["stats", "--by-test", "--json"], dir)).stdout);
    expect(Object.keys(statsJson.byTest)).to.deep.equal(["test/ask.spec.js"]);
    expect(Object.keys(statsJson.byTest["test/ask.spec.js"])).to.deep.equal(["ask capital", "ask prime"]);
  });

  it("an in-place re-record shows the response difference; a new and a removed fixture are listed as such", async () => {
    const dir = repo();
    const cassettes = path.join(dir, "cassettes");
    const ask = (vcr: Vcr, q: string) => openai(fake, vcr.cache).invoke([new HumanMessage(q)]);
    await ask(new Vcr({ dir: cassettes, mode: "record_or_replay" }), "Which ocean is the largest?");
    await ask(new Vcr({ dir: cassettes, mode: "record_or_replay" }), "Name one prime number.");
    const stream = async (vcr: Vcr) => {
      for await (const _ of await openai(fake, vcr.cache).stream([new HumanMessage("Stream a haiku")])) void _;
    };
    await stream(new Vcr({ dir: cassettes, mode: "record_or_replay" }));
    const streamed = fixtureFiles(cassettes).find((f) => fs.readFileSync(path.join(cassettes, f), "utf8").includes("chat_stream"))!;
    const [a, b] = fixtureFiles(cassettes).filter((f) => f !== streamed);
    const which = (f: string) => (fs.readFileSync(path.join(cassettes, f), "utf8").includes("ocean") ? "ocean" : "prime");
    const ocean = which(a) === "ocean" ? a : b;
    const prime = ocean === a ? b : a;
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "fixtures");
    fake.enqueue({ content: "The Pacific." });
    await ask(new Vcr({ dir: cassettes, mode: "record_always" }), "Which ocean is the largest?");
    fake.enqueue({ content: "Old pond, a frog jumps" });
    await stream(new Vcr({ dir: cassettes, mode: "record_always" }));
    fs.rmSync(path.join(cassettes, prime));
    await ask(new Vcr({ dir: cassettes, mode: "record_or_replay" }), "Tell me a joke about penguins.");
    const joke = fixtureFiles(cassettes).find((f) => f !== ocean && f !== streamed)!;

    const text = await cli(["diff"], dir);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.contain("0 changed, 1 added, 1 removed, 2 re-recorded");
    // a stream is compared as its assembled answer, not chunk by chunk
    expect(text.stdout).to.contain(
      `re-recorded chat_stream gpt-4o-mini: "Stream a haiku"\n  cassettes/${streamed}\n  response text: [-echo: Stream a haiku-] {+Old pond, a frog jumps+}\n  response chunks: 7 → 8\n`,
    );
    // compared as the answer (text, tool calls, finish reason, usage), without ids or provider echoes
    expect(text.stdout).to.contain(
      `re-recorded chat gpt-4o-mini: "Which ocean is the largest?"\n  cassettes/${ocean}\n  response generations[0].text: [-echo: Which ocean is the largest?-] {+The Pacific.+}\n` +
        "  response generations[0].usage_metadata.output_tokens: 6 → 2\n  response generations[0].usage_metadata.total_tokens: 11 → 7\n\n",
    );
    // a new or removed fixture says what it asks, as a changed one does
    expect(text.stdout).to.contain(`added    cassettes/${joke}  chat gpt-4o-mini: "Tell me a joke about penguins."\n`);
    expect(text.stdout).to.contain(`removed  cassettes/${prime}  chat gpt-4o-mini: "Name one prime number."\n`);
    const markdown = (await cli(["diff", "--format", "markdown"], dir)).stdout;
    expect(markdown).to.contain('| added | chat | gpt-4o-mini: "Tell me a joke about penguins." | — |');
    expect(markdown).to.contain('| removed | chat | gpt-4o-mini: "Name one prime number." | — |');
    const report = JSON.parse((await cli(["diff", "--format", "json"], dir)).stdout);
    expect(report.changed).to.deep.equal([]);
    expect(report.added).to.deep.equal([`cassettes/${joke}`]);
    expect(report.removed).to.deep.equal([`cassettes/${prime}`]);
    expect(report.rerecorded).to.have.length(2);
    expect(report.rerecorded.every((x: { request?: unknown }) => x.request === undefined)).to.equal(true); // the same request: no request key
    const oceanEntry = report.rerecorded.find((x: { file: string }) => x.file === `cassettes/${ocean}`);
    expect(oceanEntry.response).to.deep.include({ path: "generations[0].text", recorded: "echo: Which ocean is the largest?", requested: "The Pacific." });
  });

  it("a re-embedded text shows its vector by its size, norm and digest, not number by number", async () => {
    const dir = repo();
    const cassettes = path.join(dir, "cassettes");
    const embeddings = new Vcr({ dir: cassettes, mode: "record_or_replay" }).embeddings(
      new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }),
    );
    await embeddings.embedQuery("vector me");
    const [file] = fixtureFiles(cassettes);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "fixtures");
    const fixture = JSON.parse(fs.readFileSync(path.join(cassettes, file), "utf8")) as Fixture & { response: { vector: number[] } };
    const before = fixture.response.vector;
    expect(before.length).to.be.above(4);
    fixture.response.vector = before.map((x, i) => (i === before.length - 1 ? x + 0.5 : x)); // only the last number: the first ones and a rounded norm may not show it
    fixture.recordedAt = new Date().toISOString();
    fs.writeFileSync(path.join(cassettes, file), JSON.stringify(fixture, null, 2) + "\n");
    const text = await cli(["diff"], dir);
    expect(text.code, text.stderr).to.equal(0);
    const lines = text.stdout.split("\n").filter((l) => l.startsWith("  response "));
    // the last number alone changed: its norm and digest show it; its size is the same
    expect(lines, text.stdout).to.have.length(2);
    expect(lines[0]).to.match(/^ {2}response vector\.norm: \[-\d\.\d{4}-\] \{\+\d\.\d{4}\+\}$/);
    expect(lines[1]).to.match(/^ {2}response vector\.sha256: \[-[0-9a-f]{12}-\] \{\+[0-9a-f]{12}\+\}$/);
  });

  it("a rewritten system prompt pairs each fixture with the one that asked the same question (same title), not as added and removed", async () => {
    const dir = repo();
    const cassettes = path.join(dir, "cassettes");
    const ask = (system: string, q: string) =>
      openai(fake, new Vcr({ dir: cassettes, mode: "record_or_replay" }).cache).invoke([new SystemMessage(system), new HumanMessage(q)]);
    const OLD = "You are a helpful travel assistant. Be brief.";
    const NEW = "You are a friendly travel guide. Answer in one short sentence.";
    for (const q of ["Weather in Paris?", "Weather in Oslo?"]) await ask(OLD, q);
    await ask(OLD, "Question:\nWhat is the capital of France?");
    const before = fixtureFiles(cassettes);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "fixtures");
    for (const q of ["Weather in Paris?", "Weather in Oslo?"]) await ask(NEW, q);
    await ask(OLD, "Name one prime number."); // another question: added, paired with nothing
    // another question whose first line (all a title shows) is the same: not the same question
    await ask(NEW, "Question:\nName three primary colours.");
    // before prune, with no ledger on this machine: a rewrite and a new test beside the old one look alike, so the two are
    // shown as added, and a note says so and what would tell (trial 45)
    const unpruned = await cli(["diff"], dir);
    expect(unpruned.stdout).to.contain("0 changed, 4 added, 0 removed, 0 re-recorded\n");
    const note = "note: 2 added fixture(s) ask the same question as a fixture still here, unchanged (each says which): an edit of it";
    expect(unpruned.stdout).to.contain(note);
    // why no run says, and what would: here no ledger at all (the fixtures were recorded outside a runner)
    expect(unpruned.stdout).to.contain(
      `so they are shown as added: there is no usage ledger in node_modules/.cache/langchain-vcr/ledgers: run the whole suite, then diff again, or prune first.`,
    );
    // each such row says which fixture it asks what of
    expect(
      unpruned.stdout.match(/\n {2}asks what cassettes\/[0-9a-f]{64}\.json asked: an edit of it, or a new test beside it \(see the note\)/g),
    ).to.have.length(2);
    const unprunedMarkdown = (await cli(["diff", "--format", "markdown"], dir)).stdout;
    expect(unprunedMarkdown).to.contain(note);
    expect(
      unprunedMarkdown.match(/\| asks what `cassettes\/[0-9a-f]{12}….json` asked: an edit of it, or a new test beside it \(see the note\) \|/g),
    ).to.have.length(2);
    const unprunedJson = JSON.parse((await cli(["diff", "--format", "json"], dir)).stdout);
    expect(unprunedJson.unsureRewrites).to.equal(2);
    expect(unprunedJson.sameQuestionAs).to.have.length(2);
    // the Paris and Oslo fixtures of the old prompt, one each
    const olds = unprunedJson.sameQuestionAs.map((x: { sameQuestionAs: string }) => x.sameQuestionAs.replace("cassettes/", ""));
    expect(new Set(olds).size).to.equal(2);
    for (const old of olds) expect(before).to.include(old);
    // the suite's complete run used the new fixtures, but a one-off run of another file (another suite) was partial: the
    // note names it and how to set it aside (trial 45 recheck N2: "run the whole suite" changed nothing there)
    for (const f of ["test/a.test.mjs", "repro/x.test.mjs"]) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), "");
    }
    const ledgers = defaultLedgerDir(dir, {});
    const added = fixtureFiles(cassettes).filter((f) => !before.includes(f));
    const at = (minute: number) => new Date(Date.now() + minute * 60_000).toISOString();
    const partial = ["test files named on the command line: repro/x.test.mjs"];
    writeLedger(
      ledgers,
      ledgerRecord({
        runId: "run-1",
        n: 1,
        startedAt: at(1),
        partial,
        specFiles: ["repro/x.test.mjs"],
        used: [`cassettes/${before[0]}`],
        runner: "node --test",
      }),
    );
    writeLedger(
      ledgers,
      ledgerRecord({
        runId: "run-2",
        n: 2,
        startedAt: at(2),
        partial: [],
        specFiles: ["test/a.test.mjs"],
        used: added.map((f) => `cassettes/${f}`),
        runner: "node --test",
      }),
    );
    const otherPartial = (await cli(["diff"], dir)).stdout;
    expect(otherPartial).to.match(
      /so they are shown as added: another suite that used cassettes last ran partially: node --test run run-1 \(started \S+; test files repro\/x\.test\.mjs\): test files named on the command line: repro\/x\.test\.mjs\. Run it whole, then diff again; if it is gone \(a one-off run of a few files\), delete its ledgers: rm -r (\S+)\.\n/,
    );
    // a complete run of that suite whose test file changed since (another branch): said so, not "partially", and no rm (trial 52 F1)
    writeLedger(ledgers, {
      ...ledgerRecord({
        runId: "run-0",
        n: 0,
        startedAt: at(0),
        partial: [],
        specFiles: ["repro/x.test.mjs"],
        used: [`cassettes/${before[0]}`],
        runner: "node --test",
      }),
      specDigests: { "repro/x.test.mjs": "0123456789abcdef" },
    });
    execFileSync("bash", ["-c", `rm -r ${/delete its ledgers: rm -r (\S+)\.\n/.exec(otherPartial)![1]}`], { cwd: dir });
    const outdated = (await cli(["diff"], dir)).stdout;
    expect(outdated).to.match(
      /another suite that used cassettes last ran complete, but on what is no longer on disk: node --test run run-0 \(started \S+; test files repro\/x\.test\.mjs\): 1 test file\(s\) changed since the run \(repro\/x\.test\.mjs\): another branch, an edit or a pull; what the run used is no longer what the tests use\. Run it whole here, then diff again\.\n/,
    );
    fs.rmSync(path.join(ledgers, "run-0"), { recursive: true });
    // the same run made in a workspace package, where its ledger is (recheck 60: "here" was the root): the note names the package
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
    fs.mkdirSync(path.join(dir, "packages/api"), { recursive: true });
    fs.writeFileSync(path.join(dir, "packages/api/package.json"), JSON.stringify({ name: "api" }));
    writeLedger(defaultLedgerDir(path.join(dir, "packages/api"), {}), {
      ...ledgerRecord({
        runId: "run-0",
        n: 0,
        startedAt: at(0),
        partial: [],
        specFiles: ["../../repro/x.test.mjs"],
        used: [`../../cassettes/${before[0]}`],
        runner: "vitest",
      }),
      specDigests: { "../../repro/x.test.mjs": "0123456789abcdef" },
    });
    const inPackage = (await cli(["diff"], dir)).stdout;
    expect(inPackage).to.match(
      /another suite that used cassettes last ran complete, but on what is no longer on disk: vitest run run-0 .*\. Run it whole in packages\/api, then diff again\.\n/,
    );
    fs.rmSync(path.join(dir, "packages"), { recursive: true });
    fs.rmSync(path.join(dir, "package.json"));
    const judged = JSON.parse((await cli(["diff", "--format", "json"], dir)).stdout);
    expect(judged.addedEdits, "the complete run says the old ones are unused: edits").to.have.length(2);
    expect(judged.unsureRewrites).to.equal(undefined);
    fs.rmSync(ledgers, { recursive: true });
    for (const f of before) fs.rmSync(path.join(cassettes, f));

    const text = await cli(["diff"], dir);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.contain("2 changed, 2 added, 1 removed, 0 re-recorded");
    expect(text.stdout).to.not.contain("note: "); // after prune nothing is still here to be unsure of
    expect(text.stdout.match(/^changed chat gpt-4o-mini: "Weather in (Paris|Oslo)\?"$/gm)).to.have.length(2);
    expect(
      text.stdout.split(
        "request messages[0].content (system): You are a [-helpful travel assistant. Be brief.-] {+friendly travel guide. Answer in one short sentence.+}",
      ),
    ).to.have.length(2);
    // the second fixture with the same change says so, instead of the same lines again (trial 39: 8 fixtures, one prompt rewrite)
    expect(text.stdout.split("  request: the same change as the fixture above\n")).to.have.length(2);
    const markdown = (await cli(["diff", "--format", "markdown"], dir)).stdout;
    expect(markdown.split("- request: the same change as the fixture above\n")).to.have.length(2);
    expect(text.stdout).to.match(/^added {4}cassettes\/[0-9a-f]{64}\.json {2}chat gpt-4o-mini: "Name one prime number\."$/m);
    const report = JSON.parse((await cli(["diff", "--format", "json"], dir)).stdout);
    expect(report.changed.map((c: { request: unknown }) => c.request)).to.deep.equal([
      [{ path: "messages[0].content", recorded: OLD, requested: NEW }],
      [{ path: "messages[0].content", recorded: OLD, requested: NEW }],
    ]);
  });

  it("a migrated fixture is listed as migrated; an answer edited beside the migration is shown, not only counted, in text and markdown", async () => {
    const dir = repo();
    const cassettes = path.join(dir, "cassettes");
    fs.mkdirSync(cassettes);
    const old = "596ac902b1d8c7eb53c8591d2f89f7e7e0c8a9ac4495ab6ce3fa0f0754a5ce63.json"; // 0.1.0's "What is the capital of France?"
    fs.copyFileSync(path.join(ROOT, "test/fixtures-0.1.0/cassettes", old), path.join(cassettes, old));
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "0.1.0 fixtures");
    expect((await cli(["migrate", "cassettes"], dir)).code).to.equal(0);
    const [migrated] = fixtureFiles(cassettes);
    const plain = await cli(["diff"], dir);
    expect(plain.stdout).to.contain(`migrated from an older schema version (langchain-vcr migrate):\n  cassettes/${old} → cassettes/${migrated}\n`);
    const file = path.join(cassettes, migrated);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/"echo: What is the capital of France\?"/g, '"Lyon."'));
    const text = await cli(["diff"], dir);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.match(
      new RegExp(
        `cassettes/${old} → cassettes/${migrated} \\(\\d+ difference\\(s\\) beyond the upgrade\\):\\n    response generations\\[0\\]\\.text: \\[-echo: What is the capital of France\\?-\\] \\{\\+Lyon\\.\\+\\}`,
      ),
    );
    const markdown = (await cli(["diff", "--format", "markdown"], dir)).stdout;
    expect(markdown).to.match(/\| migrated \| chat \| .* \| `response generations\[0\]\.text[^|]*` \|/);
    expect(markdown).to.contain("(migrated, and changed beyond the upgrade)");
    expect(markdown).to.contain("- response `generations[0].text`:");
  });

  it("a re-record that drops a redaction shows how its stored request changed (the name is the unredacted request's), in text, markdown and JSON", async () => {
    const dir = repo();
    const cassettes = path.join(dir, "cassettes");
    const mask = (f: Fixture): Fixture => JSON.parse(JSON.stringify(f).replace(/CUST-\d+/g, "CUST-XXXX"));
    const ask = (vcr: Vcr) => openai(fake, vcr.cache).invoke([new HumanMessage("Balance for CUST-1001?")]);
    await ask(new Vcr({ dir: cassettes, mode: "record_or_replay", redactors: [mask] }));
    const [file] = fixtureFiles(cassettes);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "redacted");
    await ask(new Vcr({ dir: cassettes, mode: "record_always" })); // the redactor is gone: the customer id reaches the file
    expect(fixtureFiles(cassettes)).to.deep.equal([file]);

    const text = await cli(["diff"], dir);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.contain("0 changed, 0 added, 0 removed, 1 re-recorded");
    expect(text.stdout).to.contain(`  cassettes/${file}\n  request messages[0].content (user): Balance for [-CUST-XXXX?-] {+CUST-1001?+}\n  response `);
    const markdown = (await cli(["diff", "--format", "markdown"], dir)).stdout;
    expect(markdown).to.contain("| re-recorded | chat |").and.contain("| `messages[0].content (user), response ");
    const report = JSON.parse((await cli(["diff", "--format", "json"], dir)).stdout);
    expect(report.rerecorded).to.have.length(1);
    expect(report.rerecorded[0].request).to.deep.equal([
      { path: "messages[0].content", recorded: "Balance for CUST-XXXX?", requested: "Balance for CUST-1001?" },
    ]);
  });

  it("--base main... compares with the merge base: a fixture main gained after the branch point is not a removal of the branch's", async () => {
    const dir = repo();
    const cassettes = path.join(dir, "cassettes");
    const ask = (q: string) => openai(fake, new Vcr({ dir: cassettes, mode: "record_or_replay" }).cache).invoke([new HumanMessage(q)]);
    await ask("on main before the branch");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "first");
    const main = git(dir, "rev-parse", "--abbrev-ref", "HEAD").trim();
    git(dir, "checkout", "-qb", "pr");
    await ask("added by the pull request");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "pr");
    git(dir, "checkout", "-q", main);
    await ask("added to main later");
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "main moves on");
    git(dir, "checkout", "-q", "pr");
    const tip = await cli(["diff", "--base", main], dir);
    expect(tip.stdout, tip.stderr).to.contain("0 changed, 1 added, 1 removed");
    for (const base of [`${main}...`, `${main}...HEAD`, `${main}...pr`]) {
      const mergeBase = await cli(["diff", "--base", base], dir);
      expect(mergeBase.code, mergeBase.stderr).to.equal(0);
      expect(mergeBase.stdout, base).to.contain(`cassettes (${base} → working tree): 0 changed, 1 added, 0 removed`);
      expect(mergeBase.stdout).to.contain("added by the pull request").and.not.contain("added to main later");
    }
    // a fixture renamed by hand is never read: the review shows the file, not only the removal
    const [original] = fixtureFiles(cassettes);
    fs.renameSync(path.join(cassettes, original), path.join(cassettes, "refund.json"));
    const renamed = await cli(["diff", "--base", `${main}...`], dir);
    expect(renamed.code, renamed.stderr).to.equal(0);
    expect(renamed.stdout).to.match(/0 re-recorded, 1 damaged\n/);
    expect(renamed.stdout).to.contain(
      "damaged  cassettes/refund.json (working tree): is not named <sha256>.json, so no lookup reads it (langchain-vcr validate says the name it needs)",
    );
    fs.renameSync(path.join(cassettes, "refund.json"), path.join(cassettes, original));
    // a request or a response edited by hand can never replay: damaged, as validate says, not a re-recording
    const text = fs.readFileSync(path.join(cassettes, original), "utf8");
    for (const [edit, says] of [
      [(f: { request: Record<string, unknown> }) => (f.request.temperature = 0.5), `has a "request" that no longer hashes to its "hash"`],
      [
        (f: { response: { generations?: { message?: { content?: unknown } }[] } }) => (f.response.generations![0].message!.content = 42),
        "so replay refuses it",
      ],
    ] as const) {
      const fixture = JSON.parse(text);
      (edit as (f: unknown) => void)(fixture);
      fs.writeFileSync(path.join(cassettes, original), JSON.stringify(fixture, null, 2) + "\n");
      const edited = await cli(["diff", "--base", `${main}...`], dir);
      expect(edited.stdout, edited.stdout).to.match(/0 re-recorded, 1 damaged\n/);
      expect(edited.stdout).to.contain(`damaged  cassettes/${original} (working tree): `).and.contain(says);
    }
    // the same edit committed, then repaired in the working tree: the repair shows as a re-recording, not as base damage
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "a hand edit");
    fs.writeFileSync(path.join(cassettes, original), text);
    const repaired = await cli(["diff"], dir);
    expect(repaired.stdout, repaired.stdout).to.match(/1 re-recorded \(1 edited by hand\)\n/);
    // its recordedAt is the base's: a hand edit, not a recording (a recording stamps its time)
    expect(repaired.stdout).to.contain(`\nedited by hand (recordedAt unchanged) chat `).and.not.contain("\nre-recorded chat");
    expect(JSON.parse((await cli(["diff", "--format", "json"], dir)).stdout).rerecorded[0].editedByHand).to.equal(true);
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "repaired");
    // a hand edit of one copy of the answer: the generation's text (what generate() returns) and not the message (trial 37)
    const twoCopies = JSON.parse(text);
    const said = twoCopies.response.generations[0].text as string;
    twoCopies.response.generations[0].text = "Edited: " + said;
    fs.writeFileSync(path.join(cassettes, original), JSON.stringify(twoCopies, null, 2) + "\n");
    const oneCopy = await cli(["diff"], dir);
    expect(oneCopy.stdout, oneCopy.stdout).to.contain(`\nedited by hand (recordedAt unchanged) chat `);
    // a hand edit is shown as written in the file: the generation's own text, not the message's
    expect(oneCopy.stdout).to.contain(`  response generations[0].text: {+Edited:+} ${said}\n`);
    expect(oneCopy.stdout).to.not.contain("no difference a review shows");
    // a hand edit of what a review leaves out of a recording (provider metadata, ids, reasoning text) is shown as written,
    // with its file, not counted among "no difference a review shows" (trial 45)
    const hidden = JSON.parse(text);
    hidden.response.generations[0].message.response_metadata = { model_name: "edited-by-hand" };
    fs.writeFileSync(path.join(cassettes, original), JSON.stringify(hidden, null, 2) + "\n");
    const hiddenText = await cli(["diff"], dir);
    expect(hiddenText.stdout, hiddenText.stdout).to.match(/1 re-recorded \(1 edited by hand\)\n/);
    expect(hiddenText.stdout).to.contain(`\nedited by hand (recordedAt unchanged) chat `).and.contain(`\n  cassettes/${original}\n`);
    expect(hiddenText.stdout).to.match(/ {2}response generations\[0\]\.message\.response_metadata[^\n]*edited-by-hand/);
    expect(hiddenText.stdout).to.not.contain("no difference a review shows");
    const hiddenMarkdown = (await cli(["diff", "--format", "markdown"], dir)).stdout;
    expect(hiddenMarkdown, hiddenMarkdown).to.match(
      /\| edited by hand \(recordedAt unchanged\) \| chat \|[^\n]*response generations\[0\]\.message\.response_metadata/,
    );
    expect(hiddenMarkdown).to.not.contain("no difference a review shows");
    // with a visible edit beside it, both are shown (review M4: only the text was)
    hidden.response.generations[0].message.content = "Edited: " + said;
    fs.writeFileSync(path.join(cassettes, original), JSON.stringify(hidden, null, 2) + "\n");
    const both = (await cli(["diff"], dir)).stdout;
    expect(both, both).to.contain(`  response generations[0].message.content: {+Edited:+} ${said}\n`);
    expect(both).to.match(/ {2}response generations\[0\]\.message\.response_metadata[^\n]*edited-by-hand/);
    fs.writeFileSync(path.join(cassettes, original), text);
    const unknown = await cli(["diff", "--base", "nope..."], dir);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('--base "nope...": "nope" is not a commit');
    // what the repository has, as --base values: not a guess at a name it may lack
    expect(unknown.stderr).to.match(new RegExp(`\\(its branches: [^)]*\\b${main}\\.\\.\\.[,;]`));
    const headFirst = await cli(["diff", "--base", `...${main}`], dir); // git's ...B: the merge base of HEAD and B
    expect(headFirst.code, headFirst.stderr).to.equal(0);
    expect(headFirst.stdout).to.contain(`cassettes (...${main} → working tree): 0 changed, 1 added, 0 removed`);
  });

  it("reports a damaged base fixture and goes on; exits 2 outside git and on a bad --base or --format", async () => {
    const dir = repo();
    const cassettes = path.join(dir, "cassettes");
    fs.mkdirSync(cassettes);
    const broken = "a".repeat(64) + ".json";
    fs.writeFileSync(path.join(cassettes, broken), '{ "schemaVersion": 2, <<<<<<< HEAD');
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "broken");
    fs.rmSync(path.join(cassettes, broken));
    await openai(fake, new Vcr({ dir: cassettes, mode: "record_or_replay" }).cache).invoke([new HumanMessage("hi")]);
    const run = await cli(["diff"], dir);
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.contain("0 changed, 1 added, 0 removed, 0 re-recorded, 1 damaged");
    expect(run.stdout).to.contain(`damaged  cassettes/${broken} (base): is not valid JSON`);

    const outside = tmpDir("vcr-nogit-");
    const noGit = await cli(["diff"], outside, { GIT_CEILING_DIRECTORIES: path.dirname(outside) });
    expect(noGit.code).to.equal(2);
    expect(noGit.stderr).to.contain(
      `langchain-vcr diff: ${path.join(outside, "cassettes")} is not inside a git work tree, so there is no base to compare with.`,
    );
    // a new repository, nothing committed: nothing to compare with, and no fetch to suggest (review 63)
    const fresh = repo();
    fs.mkdirSync(path.join(fresh, "cassettes"));
    const uncommitted = await cli(["diff"], fresh);
    expect(uncommitted.code).to.equal(2);
    expect(uncommitted.stderr).to.contain(`--base "HEAD": ${fresh} has no commit yet, so there is nothing to compare with: every fixture here is new.`);
    expect(uncommitted.stderr).to.contain("Fix: review the fixtures one by one (npx langchain-vcr show <hash>) and commit them").and.not.contain("fetch");
    const range = await cli(["diff", "--base", "main..."], fresh); // a pull request's form (review 64: it said to fetch main)
    expect(range.code).to.equal(2);
    expect(range.stderr).to.contain("has no commit yet, so there is nothing to compare with").and.not.contain("fetch");
    expect((await cli(["diff", "--base", "no-such-branch"], dir)).code).to.equal(2);
    expect((await cli(["diff", "--format", "html"], dir)).code).to.equal(2);
    // a mistyped directory is no empty review: neither in the work tree nor at the base
    for (const typo of ["casettes", path.join("a", "b", "cassettes")]) {
      const missing = await cli(["diff", typo], dir);
      expect(missing.code, typo).to.equal(2);
      expect(missing.stderr).to.contain(
        `langchain-vcr diff: ${path.join(fs.realpathSync(dir), typo)} does not exist, and HEAD has no fixtures there either: pass the directory your Vcr uses`,
      );
    }
    // a directory removed from the work tree is a review: every fixture removed
    const moved = path.join(dir, "moved");
    fs.renameSync(cassettes, moved);
    const removedAll = await cli(["diff", "cassettes"], dir);
    expect(removedAll.code, removedAll.stderr).to.equal(0);
    expect(removedAll.stdout).to.contain("0 changed, 0 added, 0 removed, 0 re-recorded, 1 damaged"); // the base's one file, a damaged one
    fs.renameSync(moved, cassettes);
    const onFile = await cli(["diff", path.join("cassettes", fixtureFiles(cassettes)[0])], dir);
    expect(onFile.code).to.equal(2);
    expect(onFile.stderr).to.contain("is not a directory (pass the fixture directory)");
  });
});

describe("langchain-vcr diff in a shallow clone (actions/checkout's default, fetch-depth: 1)", function () {
  this.timeout(60000);

  it("a base the clone lacks, or whose history it lacks, is named with the one fetch that gets both; run as printed, diff works", async () => {
    const origin = repo();
    const cassettes = path.join(origin, "cassettes");
    fs.mkdirSync(cassettes);
    const fixture = (name: string, text: string) => fs.writeFileSync(path.join(cassettes, name), text);
    fixture("a".repeat(64) + ".json", "{}\n");
    git(origin, "add", "-A");
    git(origin, "commit", "-qm", "base");
    git(origin, "branch", "-M", "main");
    git(origin, "checkout", "-qb", "feature");
    fixture("b".repeat(64) + ".json", "{}\n");
    git(origin, "add", "-A");
    git(origin, "commit", "-qm", "feature");
    const clone = path.join(tmpDir("vcr-shallow-"), "clone");
    git(path.dirname(clone), "clone", "-q", "--depth", "1", "--branch", "feature", `file://${origin}`, clone);
    const fetch = "git fetch --unshallow --no-tags origin +refs/heads/main:refs/remotes/origin/main";

    // a bare branch name, which the clone has only as the remote's (once fetched): that fetch, and the --base to use
    const bare = await cli(["diff", "--base", "main..."], clone);
    expect(bare.code).to.equal(2);
    expect(bare.stderr).to.contain(
      `Fix: fetch the remote's main with the history a merge base needs (this clone is shallow): ${fetch}, then compare with it: --base origin/main...`,
    );
    const missing = await cli(["diff", "--base", "origin/main..."], clone);
    expect(missing.code).to.equal(2);
    expect(missing.stderr).to.contain('--base "origin/main...": "origin/main" is not a commit in');
    expect(missing.stderr).to.contain(`Fix: fetch it with the history a merge base needs (this clone is shallow): ${fetch} (in GitHub Actions`);
    expect(missing.stderr).not.to.contain("Usage:"); // not a command-line mistake
    // the base fetched alone (a shallow fetch): the history that joins them is still missing, and that is what it says
    git(clone, "fetch", "-q", "--depth", "1", "--no-tags", "origin", "+refs/heads/main:refs/remotes/origin/main");
    const cut = await cli(["diff", "--base", "origin/main..."], clone);
    expect(cut.code).to.equal(2);
    expect(cut.stderr).to.contain("no common ancestor of origin/main and HEAD is in this clone, whose history is shallow").and.contain(fetch);
    git(clone, ...fetch.split(" ").slice(1));
    const ok = await cli(["diff", "--base", "origin/main..."], clone);
    expect(ok.code, ok.stderr).to.equal(0);
    expect(ok.stdout, ok.stdout).to.contain("cassettes (origin/main... → working tree): ").and.contain("bbbbbbbb"); // the branch's own file
  });
});
