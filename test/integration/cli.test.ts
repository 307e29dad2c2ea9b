/**
 * The `langchain-vcr` CLI, run as users run it: a child process (`node src/cli/bin.ts` through
 * ts-node), on fixtures recorded by the real LangChain clients against the loopback fake.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { OpenAIEmbeddings } from "@langchain/openai";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { requestHash } from "../../src/canonical/json";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import { formatFixture } from "../../src/store/format";
import { TEMP_PREFIX } from "../../src/store/atomic";
import { builtBin, ROOT } from "../helpers/built";
import { defaultLedgerDir, writeLedger } from "../../src/runner/ledgerFiles";
import { ledgerRecord } from "../helpers/ledgerRecord";
import { cli } from "../helpers/cliRun";
import { git } from "../helpers/git";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";

builtBin(); // fails at load, with the fix, when dist/ is missing

function writeFixture(dir: string, kind: string, request: unknown, response: unknown): string {
  const hash = requestHash(kind, request);
  const file = path.join(dir, `${hash}.json`);
  fs.writeFileSync(file, formatFixture({ schemaVersion: SCHEMA_VERSION, kind, hash, recordedAt: "2026-01-01T00:00:00.000Z", request, response }));
  return file;
}

const weather = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Get the current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

/** A chat fixture of `question` in `dir`, written as the recorder writes one; its file name. */
function writeChat(dir: string, question: string): string {
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: question }] };
  const hash = requestHash("chat", request);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `${hash}.json`),
    formatFixture({
      schemaVersion: SCHEMA_VERSION,
      kind: "chat",
      hash,
      recordedAt: "2026-01-01T00:00:00.000Z",
      request,
      response: { generations: [{ text: "ok", message: { type: "ai", content: "ok" } }] },
    }),
  );
  return `${hash}.json`;
}

describe("langchain-vcr CLI (child process)", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let dir: string;
  /** Fixture files by what recorded them. */
  const recorded: Record<string, string> = {};

  before(async () => {
    fake = await startFakeProvider();
    dir = tmpDir("vcr-cli-");
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const chat = openai(fake, vcr.cache);
    const before = new Set(fixtureFiles(dir));
    const newest = (label: string) => {
      const added = fixtureFiles(dir).filter((f) => !before.has(f));
      expect(added, label).to.have.length(1);
      before.add(added[0]);
      recorded[label] = path.join(dir, added[0]);
    };
    await chat.invoke("What is the capital of France?");
    newest("capital");
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] });
    const withTools = chat.bindTools([weather]);
    const asked = await withTools.invoke("Weather in Paris?");
    newest("toolCall");
    fake.enqueue({ content: "It is sunny in Paris, 21°C." });
    await withTools.invoke([
      new HumanMessage("Weather in Paris?"),
      new AIMessage({ content: "", tool_calls: asked.tool_calls }),
      new ToolMessage({ content: '{"sky":"sunny","celsius":21}', tool_call_id: asked.tool_calls![0].id! }),
    ]);
    newest("toolResult");
    const emb = vcr.embeddings(
      new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }),
    );
    await emb.embedQuery("vector me");
    newest("embedding");
    const lookup = vcr.tool(
      tool(async ({ order }: { order: string }) => `order ${order} shipped`, {
        name: "order_status",
        description: "Order status",
        schema: z.object({ order: z.string() }),
      }),
    );
    await lookup.invoke({ order: "A-17" });
    newest("tool");
    fake.enqueue({ content: "Streamed hello there" });
    let streamed = "";
    for await (const chunk of await chat.stream("Stream a greeting")) streamed += String(chunk.content);
    expect(streamed).to.equal("Streamed hello there");
    newest("stream");
    expect(fake.count()).to.equal(5, "4 chat calls and 1 embeddings call reached the fake");
  });
  after(async () => {
    await fake.close();
    removeTmpDirs();
  });

  describe("validate", () => {
    it("exits 0 on freshly recorded fixtures", async () => {
      const r = await cli(["validate", dir]);
      expect(r.stderr).to.equal("");
      expect(r.stdout).to.equal(`langchain-vcr: ${dir}: all fixtures are valid.\n`);
      expect(r.code).to.equal(0);
    });

    it("catches a hand-edited request, a wrong hash, a temp file and a secret; --json for CI; exit 1", async () => {
      const bad = tmpDir("vcr-cli-bad-");
      for (const f of Object.values(recorded)) fs.copyFileSync(f, path.join(bad, path.basename(f)));
      const edited = path.join(bad, path.basename(recorded.capital));
      fs.writeFileSync(edited, fs.readFileSync(edited, "utf8").replace('"What is the capital of France?"', '"What is the capital of Spain?"'));
      const wrongName = path.join(bad, "0".repeat(64) + ".json");
      fs.copyFileSync(recorded.embedding, wrongName);
      const temp = path.join(bad, `${TEMP_PREFIX}deadbeefdeadbeef-999-1`);
      fs.writeFileSync(temp, "{ half a fix");
      const leaky = writeFixture(
        bad,
        "chat",
        { model: "gpt-4o-mini", messages: [{ role: "user", content: "key?" }] },
        {
          generations: [{ text: "AKIAABCDEFGHIJKLMNOP", message: { type: "ai", content: "(see text)" } }],
        },
      );

      const json = await cli(["validate", bad, "--json"]);
      expect(json.code).to.equal(1);
      const parsed = JSON.parse(json.stdout) as { ok: boolean; problems: { file: string; problem: string }[] };
      expect(parsed.ok).to.equal(false);
      const byFile = new Map(parsed.problems.map((p) => [p.file, p.problem]));
      expect(parsed.problems).to.have.length(4);
      expect(byFile.get(edited)).to.match(/^has a "request" that no longer hashes to its "hash"/);
      expect(byFile.get(wrongName)).to.equal(
        `has "hash" ${path.basename(recorded.embedding, ".json")} but its file name says ${"0".repeat(64)} (renamed, copied or merged by hand?)`,
      );
      expect(byFile.get(temp)).to.equal("is a temporary file left by an interrupted fixture write; delete it");
      expect(byFile.get(leaky)).to.equal(
        'holds a string that looks like a credential at $.response.generations[0].text (pattern "aws_access_key"); remove it, add a redactor, and rotate the key if it is real',
      );

      const text = await cli(["validate", bad]);
      expect(text.code).to.equal(1);
      expect(text.stdout).to.equal("");
      expect(text.stderr.split("\n")[0]).to.equal(`langchain-vcr: 4 problem(s) in 4 file(s) in ${bad}:`);
      expect(text.stderr).to.include(`  ${edited}: has a "request" that no longer hashes`);
    });

    it("gives the fix under a file that is not JSON, as a replay's error does (trial 42 L5: 'perhaps', and no fix); one left in merge conflict has its fix on its line", async () => {
      const bad = tmpDir("vcr-cli-damaged-");
      const truncated = path.join(bad, path.basename(recorded.capital));
      fs.writeFileSync(truncated, fs.readFileSync(recorded.capital, "utf8").slice(0, 100));
      const conflicted = path.join(bad, path.basename(recorded.embedding));
      fs.writeFileSync(conflicted, `<<<<<<< HEAD\n${fs.readFileSync(recorded.embedding, "utf8")}=======\n{}\n>>>>>>> other\n`);
      const text = await cli(["validate", bad], bad);
      expect(text.code).to.equal(1);
      const lines = text.stderr.split("\n");
      const after = (file: string) => lines[lines.findIndex((l) => l.startsWith(`  ${file}: `)) + 1];
      expect(after(path.basename(truncated))).to.equal(
        `    Fix it: restore it from git (git checkout -- "${path.basename(truncated)}"), or delete it and re-record (LANGCHAIN_VCR_MODE=record_or_replay <your test command>).`,
      );
      expect(
        lines.find((l) => l.startsWith(`  ${path.basename(conflicted)}: `)),
        text.stderr,
      ).to.match(/merge-conflict markers .*: keep one side of the conflict .*git checkout --theirs -- "[^"]*[0-9a-f]{64}\.json"/);
      expect(after(path.basename(conflicted)) ?? "").to.not.match(/^ {4}Fix it/);
    });

    it("reports a missing directory as one problem (exit 1); dir defaults to ./cassettes", async () => {
      const empty = tmpDir("vcr-cli-cwd-");
      const r = await cli(["validate", "--json"], empty);
      expect(r.code).to.equal(1);
      expect(JSON.parse(r.stdout)).to.deep.equal({
        ok: false,
        problems: [{ file: path.join(fs.realpathSync(empty), "cassettes"), problem: "does not exist (no fixture directory here)" }],
      });
    });
  });

  describe("stats", () => {
    it("--json counts and sizes by kind and by model, lists the largest, and says unused is unknown without a ledger", async () => {
      const r = await cli(["stats", dir, "--json", "--ledger-dir", path.join(dir, "no-ledgers")]);
      expect(r.code).to.equal(0);
      const s = JSON.parse(r.stdout);
      const sizes = Object.fromEntries(Object.values(recorded).map((f) => [f, fs.statSync(f).size]));
      const total = Object.values(sizes).reduce((a, b) => a + b, 0);
      expect(s.count).to.equal(6);
      expect(s.bytes).to.equal(total);
      expect(s.unreadable).to.equal(0);
      expect(s.byKind).to.deep.equal({
        chat: { count: 3, bytes: sizes[recorded.capital] + sizes[recorded.toolCall] + sizes[recorded.toolResult] },
        chat_stream: { count: 1, bytes: sizes[recorded.stream] },
        embedding: { count: 1, bytes: sizes[recorded.embedding] },
        tool: { count: 1, bytes: sizes[recorded.tool] },
      });
      expect(Object.fromEntries(Object.entries(s.byModel).map(([k, v]) => [k, (v as { count: number }).count]))).to.deep.equal({
        "gpt-4o-mini": 4,
        "text-embedding-3-small": 1,
        "(tool)": 1,
      });
      expect(s.largest).to.have.length(5);
      expect(s.largest.map((l: { bytes: number }) => l.bytes)).to.deep.equal(
        Object.values(sizes)
          .sort((a, b) => b - a)
          .slice(0, 5),
      );
      expect(s.unused).to.equal(null);
    });

    it("prints the same as text", async () => {
      const r = await cli(["stats", dir, "--ledger-dir", path.join(dir, "no-ledgers")]);
      expect(r.code).to.equal(0);
      const lines = r.stdout.split("\n");
      expect(lines[0]).to.match(new RegExp(`^fixtures in ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: 6 file\\(s\\), [\\d.]+ KiB$`));
      expect(lines[1]).to.equal("by kind:");
      expect(lines[2]).to.match(/^ {2}chat +3 +[\d.]+ KiB$/);
      expect(r.stdout).to.match(/\n {2}gpt-4o-mini +4 +[\d.]+ KiB\n/);
      expect(r.stdout).to.include(
        "unused since the last run: unknown (no usage ledger; run the whole suite with your test runner's langchain-vcr plugin (mocha, vitest, jest or node:test))",
      );
    });
  });

  describe("show", () => {
    it("renders a chat exchange found by hash prefix: model, messages with roles, answer and usage", async () => {
      const hash = path.basename(recorded.capital, ".json");
      const r = await cli(["show", hash.slice(0, 10), "--dir", dir, "--ledger-dir", path.join(dir, "no-ledgers")]);
      expect(r.stderr).to.equal("");
      expect(r.code).to.equal(0);
      expect(r.stdout).to.equal(
        [
          recorded.capital,
          `  kind:     chat`,
          `  hash:     ${hash}`,
          `  recorded: ${JSON.parse(fs.readFileSync(recorded.capital, "utf8")).recordedAt}`,
          `  answer:   from openai, Chat Completions API`,
          `  used by:  unknown (no usage ledger; run the whole suite with your test runner's langchain-vcr plugin (mocha, vitest, jest or node:test))`,
          `  model:    gpt-4o-mini`,
          `messages:`,
          `  [user] What is the capital of France?`,
          `answer:`,
          `  [assistant] echo: What is the capital of France?`,
          `    (finish: stop; tokens: 6 in, 7 out)`,
          ``,
        ].join("\n"),
      );
    });

    it("validate given a fixture file instead of its directory: the one problem said as a usage slip, with the directory to pass and show for the file (recheck 61)", async () => {
      const r = await cli(["validate", recorded.capital], path.dirname(recorded.capital));
      expect(r.code).to.equal(1);
      expect(r.stderr).to.equal(
        `langchain-vcr: the fixture directory ${recorded.capital} is not a directory.\n` +
          `  It is a file: validate checks a fixture directory, e.g. langchain-vcr validate ${path.dirname(recorded.capital)}; langchain-vcr show ${path.basename(recorded.capital)} reads this one.\n`,
      );
    });

    it("says when a fixture is damaged, as replay and validate say it (a request edited by hand: trial 38)", async () => {
      const edited = path.join(tmpDir(), path.basename(recorded.capital));
      const f = JSON.parse(fs.readFileSync(recorded.capital, "utf8"));
      f.request.messages[0].content = "What is the capital of Spain?";
      fs.writeFileSync(edited, JSON.stringify(f, null, 2) + "\n");
      const r = await cli(["show", edited, "--ledger-dir", path.join(dir, "no-ledgers")]);
      expect(r.code, r.stderr).to.equal(0);
      const damaged = r.stdout.split("\n").filter((l) => l.startsWith("  damaged:  "));
      expect(damaged).to.have.length(1);
      expect(damaged[0]).to.include('has a "request" that no longer hashes to its "hash"');
      expect((await cli(["show", recorded.capital, "--ledger-dir", path.join(dir, "no-ledgers")])).stdout).to.not.include("damaged:");
    });

    it("renders tools, tool calls and tool results of a conversation, given a file path", async () => {
      const call = await cli(["show", recorded.toolCall]);
      expect(call.code).to.equal(0);
      expect(call.stdout).to.include("tools:\n  get_weather — Get the current weather for a city\n");
      expect(call.stdout).to.include('answer:\n  [assistant]\n    → get_weather({"city":"Paris"}) [call_fake_');
      const result = await cli(["show", recorded.toolResult]);
      expect(result.code).to.equal(0);
      expect(result.stdout).to.include(
        [
          "messages:",
          "  [user] Weather in Paris?",
          "  [assistant]",
          '    → get_weather({"city":"Paris"}) [call_1]',
          '  [tool for call_1] {"sky":"sunny","celsius":21}',
          "answer:",
          "  [assistant] It is sunny in Paris, 21°C.",
        ].join("\n"),
      );
    });

    it("summarises an embedding's vector and renders a tool's arguments and result", async () => {
      const emb = await cli(["show", recorded.embedding]);
      expect(emb.code).to.equal(0);
      expect(emb.stdout).to.include("  model:    text-embedding-3-small\n");
      expect(emb.stdout).to.include("text:\n  vector me\nanswer:\n  vector of ");
      const t = await cli(["show", path.basename(recorded.tool), "--dir", dir]);
      expect(t.code).to.equal(0);
      expect(t.stdout).to.include('  tool:     order_status\narguments:\n  {\n    "order": "A-17"\n  }\nanswer:\n  returned:\n    "order A-17 shipped"\n');
    });

    it("joins a stream's chunks into its answer", async () => {
      const r = await cli(["show", recorded.stream]);
      expect(r.code).to.equal(0);
      expect(r.stdout).to.include("  kind:     chat_stream\n");
      expect(r.stdout).to.match(/messages:\n {2}\[user\] Stream a greeting\nanswer:\n {2}\[assistant\] Streamed hello there\n {4}\(\d+ chunk\(s\)/);
    });

    it("never prints a credential a fixture holds by mistake (a key's shape, a credential variable's value); show --json prints the file as it is; diff's markdown leaves it out too", async () => {
      const d = tmpDir("vcr-cli-secret-");
      git(d, "init", "-q");
      const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "What is my key?" }] };
      const answer = (text: string) => ({ generations: [{ text, message: { type: "ai", content: text } }] });
      const file = writeFixture(d, "chat", request, answer("I cannot say."));
      git(d, "add", "-A");
      git(d, "commit", "-qm", "recorded");
      const key = "sk-abcdefghijklmnopqrstuvwxyz0123";
      writeFixture(d, "chat", request, answer(`Your key is ${key}, and the token local-dummy-key-42abc.`));
      const env = { OPENAI_API_KEY: "local-dummy-key-42abc" };
      const shown = await cli(["show", file], d, env);
      expect(shown.code, shown.stderr).to.equal(0);
      expect(shown.stdout).to.include("Your key is [secret: openai_key], and the token [secret: $OPENAI_API_KEY].");
      expect(shown.stdout).to.not.include(key).and.not.include("local-dummy-key-42abc");
      expect((await cli(["show", file, "--json"], d, env)).stdout).to.equal(fs.readFileSync(file, "utf8"));
      const allowed = await cli(["show", file, "--allow-secret-pattern", "openai_key"], d, env);
      expect(allowed.stdout).to.include(`Your key is ${key}, and the token [secret: $OPENAI_API_KEY].`);
      // a stream that spells the key across chunks: the joined answer is masked too
      const chunks = ["Your key is ", key.slice(0, 10), key.slice(10), "."].map((text) => ({ text, message: { type: "ai", content: text } }));
      const stream = writeFixture(d, "chat_stream", { ...request, messages: [{ role: "user", content: "Stream my key." }] }, { chunks });
      const streamed = await cli(["show", stream], d, env);
      expect(streamed.code, streamed.stderr).to.equal(0);
      expect(streamed.stdout).to.include("[assistant] Your key is [secret: openai_key].").and.not.include(key);
      for (const format of ["text", "markdown", "json"]) {
        const diff = await cli(["diff", ".", "--format", format], d, env);
        expect(diff.code, diff.stderr).to.equal(0);
        if (format !== "markdown") expect(diff.stdout, format).to.include("[secret: openai_key]").and.include("[secret: $OPENAI_API_KEY]");
        else expect(diff.stdout).to.include("secret: openai\\_key").and.include("secret: \\$OPENAI\\_API\\_KEY"); // markdown escapes _ and $
        expect(diff.stdout, format).to.not.include(key).and.not.include("local-dummy-key-42abc");
      }
    });

    it("fails with exit 1 on an unknown hash prefix or a target that is neither file nor hash", async () => {
      const missing = await cli(["show", "abcdef0123", "--dir", dir]);
      expect(missing.code).to.equal(1);
      // --dir was given: the hash is what to check
      expect(missing.stderr).to.equal(
        `langchain-vcr: no fixture in ${dir} has a hash starting with abcdef0123.\n  Check the hash (langchain-vcr stats ${dir} lists the fixtures), or pass a file path.\n`,
      );
      const spaced = path.join(dir, "my cassettes");
      fs.mkdirSync(spaced, { recursive: true });
      const quoted = await cli(["show", "abcdef0123", "--dir", spaced]);
      expect(quoted.stderr).to.include(`(langchain-vcr stats "${spaced}" lists the fixtures)`);
      fs.rmSync(spaced, { recursive: true });
      const notHex = await cli(["show", "hello", "--dir", dir]);
      expect(notHex.code).to.equal(1);
      expect(notHex.stderr).to.include('"hello" is neither a fixture file nor a hash');
      const noFile = await cli(["show", path.join(dir, "nonexist.json")]);
      expect(noFile.code).to.equal(1);
      expect(noFile.stderr).to.include(`${path.join(dir, "nonexist.json")} does not exist`);
      const noHashFile = await cli(["show", path.join(dir, "abcdef0123.json")]);
      expect(noHashFile.stderr).to.include(`${path.join(dir, "abcdef0123.json")} does not exist. Check the path, or pass the hash alone`);
    });

    it("a missing fixture directory: each command's error shows that command's own call", async () => {
      const gone = path.join(dir, "no-such-dir");
      for (const [args, call] of [
        [["prune", gone], "langchain-vcr prune path/to/cassettes"],
        [["stats", gone], "langchain-vcr stats path/to/cassettes"],
        [["migrate", gone], "langchain-vcr migrate path/to/cassettes"],
        [["validate", gone], "langchain-vcr validate path/to/cassettes"],
      ] as const) {
        const out = await cli([...args]);
        expect(out.code, args.join(" ")).to.equal(1);
        expect(out.stderr).to.include(`the fixture directory ${gone} does not exist.`).and.include(`e.g. ${call}`);
      }
    });

    it("run inside a workspace package with no cassettes of its own: the workspace root's (one directory for every package, user trial 43); a package of no workspace stays its own", async () => {
      const root = path.join(dir, "mono-root");
      fs.mkdirSync(path.join(root, "packages/agent/src"), { recursive: true });
      fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
      fs.writeFileSync(path.join(root, "packages/agent/package.json"), JSON.stringify({ name: "agent" }));
      const name = writeChat(path.join(root, "cassettes"), "recorded from the root");
      for (const cwd of [path.join(root, "packages/agent"), path.join(root, "packages/agent/src")]) {
        const validate = await cli(["validate"], cwd);
        expect(validate.code, validate.stderr).to.equal(0);
        expect(validate.stdout).to.include(`${path.join(root, "cassettes")}: all fixtures are valid`);
        const shown = await cli(["show", name.slice(0, 8)], cwd);
        expect(shown.code, shown.stderr).to.equal(0);
        expect(shown.stdout).to.include("recorded from the root");
      }
      // the ledgers read are the workspace root's, where the suite that used it ran, not an old one of the package's (trial 43 recheck)
      const run = (at: string, minute: number, exitCode: number, used: string[]) => {
        const startedAt = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
        writeLedger(defaultLedgerDir(at, {}), { ...ledgerRecord({ runId: `r${minute}`, n: minute, startedAt, partial: [], specFiles: [], used }), exitCode });
      };
      run(path.join(root, "packages/agent"), 1, 1, []); // an old failed run in the package
      run(root, 2, 0, [`cassettes/${name}`]);
      const stats = await cli(["stats"], path.join(root, "packages/agent"));
      expect(stats.code, stats.stderr).to.equal(0);
      expect(stats.stdout).to.include("unused since the last run: 0 (run r2");
      const used = await cli(["show", name.slice(0, 8)], path.join(root, "packages/agent"));
      expect(used.stdout).to.include("used by:  the last run (r2)");
      // the package's own runs newer (each package's tests run in the package, dir "../../cassettes"): the package's ledgers
      run(path.join(root, "packages/agent"), 3, 0, [`../../cassettes/${name}`]);
      const own = await cli(["stats"], path.join(root, "packages/agent"));
      expect(own.stdout).to.include("unused since the last run: 0 (run r3");
      // not a package of the workspace's: its own directory, which it does not have
      const loose = path.join(root, "tools/loose");
      fs.mkdirSync(loose, { recursive: true });
      fs.writeFileSync(path.join(loose, "package.json"), JSON.stringify({ name: "loose" }));
      const alone = await cli(["validate"], loose);
      expect(alone.code).to.equal(1);
      expect(alone.stderr).to.equal(
        `langchain-vcr: the fixture directory ${path.join(loose, "cassettes")} does not exist.\n` +
          `  Pass the directory your Vcr uses (new Vcr({ dir })), from here or absolute, e.g. langchain-vcr validate path/to/cassettes\n`,
      );
    });

    it("run at a workspace's root, where the tests ran in its packages: the missing directory's error names the packages' fixture directories of that name (one level or more below each) and a command for each, its flags kept", async () => {
      const root = path.join(dir, "mono");
      fs.mkdirSync(path.join(root, "packages/app/cassettes"), { recursive: true });
      fs.mkdirSync(path.join(root, "packages/worker/cassettes"), { recursive: true });
      fs.mkdirSync(path.join(root, "packages/lib/test/cassettes"), { recursive: true });
      fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
      for (const p of ["app", "lib", "worker"]) fs.writeFileSync(path.join(root, "packages", p, "package.json"), JSON.stringify({ name: p }));
      const [app, worker] = [path.join("packages", "app"), path.join("packages", "worker")];
      const stats = await cli(["stats"], root);
      expect(stats.code, stats.stderr).to.equal(1);
      expect(stats.stderr)
        .to.include(`the fixture directory ${path.join(root, "cassettes")} does not exist.`)
        .and.include(`Workspace packages hold fixture directories of that name: ${path.join(app, "cassettes")}, ${path.join(worker, "cassettes")}.`)
        .and.include(
          `Run it where each package's tests last ran (their ledger is kept there):\n    (cd ${app} && npx langchain-vcr stats)\n    (cd ${worker} && npx langchain-vcr stats)`,
        );
      const prune = await cli(["prune", path.join("test", "cassettes")], root);
      expect(prune.code).to.equal(1);
      expect(prune.stderr)
        .to.include(`Workspace packages hold fixture directories of that name: ${path.join("packages", "lib", "test", "cassettes")}.`)
        .and.include(`: (cd ${path.join("packages", "lib")} && npx langchain-vcr prune ${path.join("test", "cassettes")})`);

      // a command that reads no ledger is passed each package's directory from here
      const validate = await cli(["validate"], root);
      expect(validate.code).to.equal(1);
      expect(validate.stderr).to.include(
        `Pass it:\n    npx langchain-vcr validate ${path.join(app, "cassettes")}\n    npx langchain-vcr validate ${path.join(worker, "cassettes")}`,
      );
      const json = await cli(["validate", "--json"], root);
      expect(JSON.parse(json.stdout).ok).to.equal(false);
      expect(json.stderr).to.include(`npx langchain-vcr validate --json ${path.join(worker, "cassettes")}`);
      const passed = await cli(["validate", path.join(app, "cassettes")], root);
      expect(passed.code, passed.stderr).to.equal(0);
      git(root, "init", "-q");
      git(root, "commit", "-q", "--allow-empty", "-m", "start");
      const diff = await cli(["diff", "--base", "HEAD"], root);
      expect(diff.code).to.equal(1);
      expect(diff.stderr).to.not.include("Usage:");
      expect(diff.stderr).to.include(
        `npx langchain-vcr diff --base HEAD ${path.join(app, "cassettes")}\n    npx langchain-vcr diff --base HEAD ${path.join(worker, "cassettes")}`,
      );

      // show <hash>: only the package whose directory holds it is named (trial 52: worker's command failed)
      const hash = "ab12".padEnd(64, "0");
      fs.writeFileSync(path.join(root, "packages/worker/cassettes", `${hash}.json`), "{}");
      const show = await cli(["show", "ab12"], root);
      expect(show.code).to.equal(1);
      expect(show.stderr)
        .to.include(`Workspace packages hold fixture directories of that name: ${path.join(app, "cassettes")}, ${path.join(worker, "cassettes")}.`)
        .and.include(`kept there): (cd ${worker} && npx langchain-vcr show ab12 --dir cassettes)`)
        .and.not.include(`(cd ${app} &&`);
      fs.rmSync(path.join(root, "packages/worker/cassettes", `${hash}.json`));
      const none = await cli(["show", "ab12"], root);
      expect(none.code).to.equal(1);
      expect(none.stderr)
        .to.include("None of them holds a fixture whose hash starts with ab12 either: check it, or pass a file's path.")
        .and.not.include("npx langchain-vcr show");

      // each package where its tests last ran: app's from the root (its ledger there is newer), worker's in the package
      const ledger = (at: string, minute: number, used: string[] = []) =>
        writeLedger(
          defaultLedgerDir(at, {}),
          ledgerRecord({
            runId: `r${minute}`,
            n: minute,
            startedAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
            partial: [],
            specFiles: [],
            used,
          }),
        );
      ledger(path.join(root, app), 1);
      ledger(root, 2);
      ledger(path.join(root, worker), 3);
      const mixed = await cli(["prune", "--check"], root);
      expect(mixed.stderr).to.include(
        `\n    npx langchain-vcr prune --check ${path.join(app, "cassettes")}\n    (cd ${worker} && npx langchain-vcr prune --check)`,
      );
      // told where the ledgers are (relative to here): every command runs here, none after a cd
      const told = await cli(["prune", "--check", "--ledger-dir", "ci-ledgers"], root);
      expect(told.stderr)
        .to.include(`npx langchain-vcr prune --check --ledger-dir ci-ledgers ${path.join(worker, "cassettes")}`)
        .and.not.include("(cd ");
      fs.writeFileSync(path.join(root, app, "cassettes", `${"abcd".padEnd(64, "0")}.json`), "{}"); // the package holding it is named
      const shown = await cli(["show", "abcd", "--json"], root);
      expect(shown.stderr).to.include(`npx langchain-vcr show abcd --json --dir ${path.join(app, "cassettes")}`);

      // --ledger-dir naming a package's own ledgers, from the root: their paths are read from that package
      const used = writeChat(path.join(root, worker, "cassettes"), "used by the worker's run");
      const unused = writeChat(path.join(root, worker, "cassettes"), "used by no run");
      ledger(path.join(root, worker), 4, [`cassettes/${used}`]);
      git(root, "add", "-A");
      git(root, "commit", "-q", "-m", "fixtures"); // prune removes only what git can give back
      const pruned = await cli(
        ["prune", "--ledger-dir", path.join(worker, "node_modules", ".cache", "langchain-vcr", "ledgers"), path.join(worker, "cassettes")],
        root,
      );
      expect(pruned.code, pruned.stderr).to.equal(0);
      expect(pruned.stdout).to.include(`removed ${path.join(worker, "cassettes", unused)}`);
      expect(fixtureFiles(path.join(root, worker, "cassettes"))).to.deep.equal([used]);
    });
  });

  describe("usage", () => {
    it("--version (and -v, version) prints the package's version and exits 0", async () => {
      const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
      for (const flag of ["--version", "-v", "version"]) {
        const r = await cli([flag]);
        expect(r.code, flag).to.equal(0);
        expect(r.stdout, flag).to.equal(`${version}\n`);
      }
    });

    it("an unknown command prints the usage and exits 2; no command too", async () => {
      const r = await cli(["frobnicate"]);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.match(/^langchain-vcr: unknown command "frobnicate"\.\n\nUsage: langchain-vcr <command> \[options\]\n/);
      const list = await cli(["list"]); // what other tools call it (trial 43)
      expect(list.code).to.equal(2);
      expect(list.stderr).to.match(
        /^langchain-vcr: unknown command "list"\. Did you mean: langchain-vcr stats --by-test \(the fixtures each test of the last run used\)\n\nUsage:/,
      );
      const proto = await cli(["constructor"]); // not a name in the table, whatever Object.prototype holds
      expect(proto.stderr).to.match(/^langchain-vcr: unknown command "constructor"\.\n\nUsage:/);
      const none = await cli([]);
      expect(none.code).to.equal(2);
      expect(none.stderr).to.match(/^Usage: langchain-vcr <command>/);
    });

    it("--help works for every command and exits 0; an unknown option exits 2", async () => {
      const runs = await Promise.all(["validate", "prune", "stats", "show"].map((c) => cli([c, "--help"])));
      runs.forEach((r, i) => {
        expect(r.code).to.equal(0);
        expect(r.stdout.split("\n")[0]).to.match(new RegExp(`^Usage: langchain-vcr ${["validate", "prune", "stats", "show"][i]} `));
        expect(r.stdout).to.include('"cassettes"');
      });
      const bad = await cli(["stats", "--frobnicate"]);
      expect(bad.code).to.equal(2);
      expect(bad.stderr).to.match(/^langchain-vcr stats: unknown option --frobnicate\.\n\nUsage: langchain-vcr stats/);
    });

    it("a second positional is a usage error for every command that takes one [dir]: `prune cassettes dry-run` deletes nothing", async () => {
      const dir = tmpDir("vcr-cli-extra-");
      const cassettes = path.join(dir, "cassettes");
      fs.mkdirSync(cassettes);
      const stray = path.join(cassettes, "f".repeat(64) + ".json");
      fs.writeFileSync(stray, "{}");
      for (const command of ["prune", "migrate", "stats", "validate", "diff"]) {
        const r = await cli([command, "cassettes", "dry-run"], dir);
        expect(r.code, command).to.equal(2);
        expect(r.stderr, command).to.match(
          new RegExp(
            `^langchain-vcr ${command}: ${command} takes at most one \\[dir\\], not 2 arguments \\("cassettes" "dry-run"\\)\\.\\n\\nUsage: langchain-vcr ${command} `,
          ),
        );
      }
      expect(fs.existsSync(stray)).to.equal(true);
    });
  });

  describe("on 10,000 fixtures", () => {
    it("stats and validate read them all (timings printed, not asserted)", async () => {
      const big = tmpDir("vcr-cli-10k-");
      const models = ["gpt-4o-mini", "gpt-4o", "llama3.2", "claude-x"];
      for (let i = 0; i < 10000; i++) {
        const model = models[i % models.length];
        writeFixture(
          big,
          "chat",
          { model, messages: [{ role: "user", content: `question number ${i}` }] },
          { generations: [{ text: `answer ${i}`, message: { type: "ai", content: `answer ${i}` } }] },
        );
      }
      const stats = await cli(["stats", big, "--json", "--ledger-dir", path.join(big, "none")]);
      expect(stats.code).to.equal(0);
      const s = JSON.parse(stats.stdout);
      expect(s.count).to.equal(10000);
      expect(s.byModel["gpt-4o"].count).to.equal(2500);
      const baseline = await cli(["--help"]);
      const validate = await cli(["validate", big, "--json"]);
      expect(validate.code).to.equal(0);
      expect(JSON.parse(validate.stdout)).to.deep.equal({ ok: true, problems: [] });
      console.log(`      [timing] 10,000 fixtures: stats ${stats.ms} ms, validate ${validate.ms} ms, CLI start-up alone (--help) ${baseline.ms} ms`);
    });
  });
});
