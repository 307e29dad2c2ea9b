import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../../src/canonical/json";
import { SCHEMA_VERSION, withLine } from "../../src/store/fixture";
import { formatFixture } from "../../src/store/format";
import { TEMP_PREFIX } from "../../src/store/atomic";
import { validateFixtures } from "../../src/validate";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { git } from "../helpers/git";
import { FixtureStore } from "../../src/store/store";
import { VcrFixtureError } from "../../src/errors";
import { rerecordCommand } from "../../src/diagnose/rerecordCommand";

/** Writes a well-formed chat fixture with the real formatter; returns its file. */
function writeFixture(
  dir: string,
  text: string,
  extra: Record<string, unknown> = {},
  response: unknown = { generations: [{ text: "ok", message: { type: "ai", content: "ok" } }] },
): string {
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: text }] };
  const hash = requestHash("chat", request);
  const file = path.join(dir, `${hash}.json`);
  fs.writeFileSync(
    file,
    formatFixture({ schemaVersion: SCHEMA_VERSION, kind: "chat", hash, recordedAt: "2026-01-01T00:00:00.000Z", request, response, ...extra }),
  );
  return file;
}

function problemsOf(problems: { file: string; problem: string }[], file: string): string[] {
  return problems.filter((p) => p.file === file).map((p) => p.problem);
}

describe("validateFixtures", () => {
  let dir: string;
  beforeEach(() => {
    dir = tmpDir("vcr-validate-");
  });
  afterEach(() => removeTmpDirs());

  it("finds no problem in well-formed fixtures, and ignores dotfiles such as .gitkeep", async () => {
    writeFixture(dir, "one");
    writeFixture(dir, "two");
    fs.writeFileSync(path.join(dir, ".gitkeep"), "");
    fs.writeFileSync(path.join(dir, ".DS_Store"), "binary junk");
    expect(await validateFixtures(dir)).to.deep.equal([]);
  });

  it("catches a hand-edited request (it no longer re-hashes to its hash), unless the fixture is marked redacted", async () => {
    const edited = writeFixture(dir, "What is 2+2?");
    fs.writeFileSync(edited, fs.readFileSync(edited, "utf8").replace("What is 2+2?", "What is 2+3?"));
    const redacted = writeFixture(dir, "secret-ish prompt", { redacted: true });
    fs.writeFileSync(redacted, fs.readFileSync(redacted, "utf8").replace("secret-ish prompt", "[REDACTED]"));
    const problems = await validateFixtures(dir);
    expect(problems).to.have.length(1);
    expect(problems[0].file).to.equal(edited);
    expect(path.isAbsolute(problems[0].file)).to.equal(true);
    expect(problems[0].problem).to.match(
      /^has a "request" that no longer hashes to its "hash" \(it hashes to [0-9a-f]{64}\): the request was edited by hand or merged badly/,
    );
  });

  it("catches a fixture whose file name is not its hash, and a file not named <hash>.json", async () => {
    const original = writeFixture(dir, "renamed");
    const wrongName = path.join(dir, "f".repeat(64) + ".json");
    fs.renameSync(original, wrongName);
    const hash = path.basename(original, ".json");
    const misnamed = path.join(dir, "my-fixture.json");
    fs.copyFileSync(wrongName, misnamed);
    const problems = await validateFixtures(dir);
    expect(problemsOf(problems, wrongName)).to.deep.equal([`has "hash" ${hash} but its file name says ${"f".repeat(64)} (renamed, copied or merged by hand?)`]);
    expect(problemsOf(problems, misnamed)).to.deep.equal([
      `is not named <64 lowercase hex>.json, so it is never read; its "hash" says it should be ${hash}.json`,
    ]);
    expect(problems).to.have.length(2);
  });

  it("flags leftover temp files, other files and subdirectories", async () => {
    writeFixture(dir, "fine");
    const temp = path.join(dir, `${TEMP_PREFIX}0123456789abcdef-123-1`);
    fs.writeFileSync(temp, "{");
    const readme = path.join(dir, "README.md");
    fs.writeFileSync(readme, "# fixtures");
    const sub = path.join(dir, "old");
    fs.mkdirSync(sub);
    const problems = await validateFixtures(dir);
    expect(problemsOf(problems, temp)).to.deep.equal(["is a temporary file left by an interrupted fixture write; delete it"]);
    expect(problemsOf(problems, readme)).to.deep.equal(["is not a fixture file (fixtures are named <sha256 hex>.json); move it out of the fixture directory"]);
    expect(problemsOf(problems, sub)).to.deep.equal(["is a directory; fixtures are only read from the top level of the fixture directory"]);
    expect(problems).to.have.length(3);
  });

  it("flags credential-shaped strings with their path, unless the pattern is allowed", async () => {
    const leaky = writeFixture(
      dir,
      "hi",
      {},
      {
        generations: [{ text: "your key is sk-abcdefghijklmnopqrstuvwxyz0123", message: { type: "ai", content: "your key is (see text)" } }],
      },
    );
    const problems = await validateFixtures(dir);
    expect(problems).to.deep.equal([
      {
        file: leaky,
        problem:
          'holds a string that looks like a credential at $.response.generations[0].text (pattern "openai_key"); remove it, add a redactor, and rotate the key if it is real',
      },
    ]);
    expect(await validateFixtures(dir, { allowSecretPatterns: ["openai_key"] })).to.deep.equal([]);
  });

  it("flags the value of a credential variable of this shell, as the recorder refuses it, naming the variable (not its value)", async () => {
    const leaky = writeFixture(dir, "hi", {}, { generations: [{ text: "token local-dummy-key-42abc", message: { type: "ai", content: "ok" } }] });
    expect(await validateFixtures(dir)).to.deep.equal([]); // an unknown value of no credential shape
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "local-dummy-key-42abc";
    try {
      expect(await validateFixtures(dir)).to.deep.equal([
        {
          file: leaky,
          problem:
            'holds the value of $OPENAI_API_KEY at $.response.generations[0].text (pattern "environment_secret"); remove it, add a redactor, and rotate the key if it is real',
        },
      ]);
      expect(await validateFixtures(dir, { allowSecretPatterns: ["environment_secret"] })).to.deep.equal([]);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it("names every credential a file holds, so one clean-up finds them all: each kind in one string, and a key spelled across stream chunks beside one whole in a chunk", async () => {
    const key = "sk-abcdefghijklmnopqrstuvwxyz0123";
    const bearer = "Bearer abcdefghijklmnopqrstuvwx";
    const found = (path: string, pattern: string) => `a string that looks like a credential at ${path} (pattern "${pattern}")`;
    const many = (n: number, listed: string[]) => `holds ${n} credentials: ${listed.join("; ")}. Remove them, add redactors, and rotate every key that is real`;
    const chat = writeFixture(dir, `call with ${key}`, {}, { generations: [{ text: `${key} and ${bearer}`, message: { type: "ai", content: "ok" } }] });
    /** A stream fixture of `question` whose chunks are `chunks` (the file as written gives each its message too). */
    const stream = (question: string, chunks: unknown[]) => {
      const request = { model: "m", messages: [{ role: "user", content: question }] };
      const hash = requestHash("chat_stream", request);
      const file = path.join(dir, `${hash}.json`);
      const fixture = {
        schemaVersion: SCHEMA_VERSION,
        kind: "chat_stream" as const,
        hash,
        recordedAt: "2026-01-01T00:00:00.000Z",
        request,
        response: { chunks },
      };
      fs.writeFileSync(file, formatFixture(fixture));
      return file;
    };
    // a key whole in one chunk: named at that chunk, not again for the chunks joined
    const whole = stream("whole", [{ text: `whole ${key}` }, { text: "and more" }]);
    // a bearer token whole in one chunk's metadata, and a key spelled across the next two chunks: both named
    const spelled = stream("spelled", [
      { text: "", message: { content: "", response_metadata: { auth: bearer } } },
      { text: "sk-abcdefghij" },
      { text: "klmnopqrstuvwxyz0123" },
    ]);
    // more than ten (one in the request, one in each of 11 answers): the first ten, then a count
    const twelve = writeFixture(
      dir,
      `another call with ${key}`,
      {},
      {
        generations: Array.from({ length: 11 }, () => ({ text: key, message: { type: "ai", content: "ok" } })),
      },
    );
    const problems = await validateFixtures(dir);
    expect(problemsOf(problems, chat)).to.deep.equal([
      many(3, [
        found("$.request.messages[0].content", "openai_key"),
        found("$.response.generations[0].text", "openai_key"),
        found("$.response.generations[0].text", "bearer_token"),
      ]),
    ]);
    expect(problemsOf(problems, whole)).to.deep.equal([
      many(2, [found("$.response.chunks[0].text", "openai_key"), found("$.response.chunks[0].message.content", "openai_key")]),
    ]);
    expect(problemsOf(problems, spelled)).to.deep.equal([
      many(3, [
        found("$.response.chunks[0].message.response_metadata.auth", "bearer_token"),
        found("$.response.chunks[*].text, joined", "openai_key"),
        found("$.response.chunks[*].message.content, joined", "openai_key"),
      ]),
    ]);
    const [capped] = problemsOf(problems, twelve);
    expect(capped)
      .to.match(/^holds 12 credentials: /)
      .and.match(/; and 2 more\. Remove them/);
    expect(capped.split("; ").filter((part) => part.includes("(pattern"))).to.have.length(10);
  });

  it("reports every bad file and keeps going: empty, invalid JSON, bad envelope, newer schema", async () => {
    const good = writeFixture(dir, "good");
    const empty = path.join(dir, "a".repeat(64) + ".json");
    fs.writeFileSync(empty, "");
    const broken = path.join(dir, "b".repeat(64) + ".json");
    fs.writeFileSync(broken, '{\n<<<<<<< HEAD\n  "kind": "chat"\n');
    const noKind = path.join(dir, "c".repeat(64) + ".json");
    fs.writeFileSync(noKind, JSON.stringify({ schemaVersion: 1, kind: "video", hash: "c".repeat(64) }));
    const kindless = path.join(dir, "d".repeat(64) + ".json");
    fs.writeFileSync(kindless, JSON.stringify({ schemaVersion: 1, hash: "d".repeat(64) }));
    const newer = writeFixture(dir, "future", { schemaVersion: SCHEMA_VERSION + 1 });
    const problems = await validateFixtures(dir);
    expect(problemsOf(problems, good)).to.deep.equal([]);
    expect(problemsOf(problems, empty)).to.deep.equal(["is empty"]);
    expect(problemsOf(problems, broken)).to.have.length(1);
    expect(problemsOf(problems, broken)[0]).to.match(/^is not valid JSON \(.+\): a merge conflict or a truncated write, perhaps$/);
    // where, as an editor shows it (Node 20 gives the position alone; Node 22 adds the line and column itself)
    const indented = path.join(dir, "e".repeat(64) + ".json");
    fs.writeFileSync(indented, '{\n  "a": 1,\n  x\n}\n');
    expect(problemsOf(await validateFixtures(dir), indented)[0]).to.match(/^is not valid JSON \(.+ at position 14 \(line 3 column 3\)\): a merge conflict/);
    // Node 22's own message already says it: said once (the position's digits are not cut short to add it again)
    expect(withLine("Expected double-quoted property name in JSON at position 14 (line 3 column 3)", '{\n  "a": 1,\n  x\n}\n')).to.equal(
      "Expected double-quoted property name in JSON at position 14 (line 3 column 3)",
    );
    expect(problemsOf(problems, noKind)).to.deep.equal(['has an unknown "kind" "video" (valid: chat, chat_stream, llm, embedding, tool, moderation)']);
    expect(problemsOf(problems, kindless)).to.deep.equal(['has no "kind" (valid: chat, chat_stream, llm, embedding, tool, moderation)']);
    expect(problemsOf(problems, newer)[0]).to.match(/^has schemaVersion 3, newer than this langchain-vcr understands \(2\)/);
    expect(problems).to.have.length(5);
    expect(problems.map((p) => p.file)).to.deep.equal([...problems.map((p) => p.file)].sort(), "problems come in file-name order");
  });

  it("a fixture a git merge left in conflict: named as such, and the fix it gives (one side) works where `git checkout -- file` is refused", async () => {
    git(dir, "init", "-q");
    const file = writeFixture(dir, "same question", {}, { generations: [{ text: "first answer", message: { type: "ai", content: "first answer" } }] });
    git(dir, "add", "-A");
    git(dir, "commit", "-qm", "recorded");
    const main = git(dir, "rev-parse", "--abbrev-ref", "HEAD").trim();
    git(dir, "checkout", "-qb", "other");
    writeFixture(
      dir,
      "same question",
      { recordedAt: "2026-02-02T00:00:00.000Z" },
      { generations: [{ text: "their answer", message: { type: "ai", content: "their answer" } }] },
    );
    git(dir, "commit", "-qam", "re-recorded there");
    git(dir, "checkout", "-q", main);
    writeFixture(
      dir,
      "same question",
      { recordedAt: "2026-03-03T00:00:00.000Z" },
      { generations: [{ text: "our answer", message: { type: "ai", content: "our answer" } }] },
    );
    git(dir, "commit", "-qam", "re-recorded here");
    expect(() => git(dir, "merge", "-q", "other")).to.throw(); // CONFLICT (content), on git's stdout
    expect(fs.readFileSync(file, "utf8")).to.match(/^<<<<<<< /m);
    expect(() => git(dir, "checkout", "--", file)).to.throw(/unmerged/); // the generic fix fails mid-merge
    const problems = await validateFixtures(dir);
    expect(problemsOf(problems, file)).to.deep.equal([
      `holds unresolved git merge-conflict markers (<<<<<<< … >>>>>>>): keep one side of the conflict (both answer the same request, which names the file): ` +
        `while the merge is in progress, git checkout --theirs -- ${JSON.stringify(file)} (or --ours), then git add ${JSON.stringify(file)}; ` +
        `once the markers are committed, take the file from one parent: git checkout <merge commit>^2 -- ${JSON.stringify(file)} (or ^1)`,
    ]);
    const store = new FixtureStore(dir);
    expect(() => store.read(path.basename(file, ".json"))).to.throw(
      VcrFixtureError,
      /merge-conflict markers[^]*It was not treated as a miss[^]*Fix it: keep one side of the conflict [^]*while the merge is in progress, git checkout --theirs/,
    );
    // run from the repository (CI's checkout, a reviewer's): the commands name the file from there, to paste anywhere (trial 58 L3)
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const rel = JSON.stringify(path.basename(file));
      expect(problemsOf(await validateFixtures(dir), file)[0]).to.include(`git checkout --theirs -- ${rel} (or --ours), then git add ${rel};`);
    } finally {
      process.chdir(cwd);
    }
    git(dir, "checkout", "--theirs", "--", file);
    git(dir, "add", file);
    expect(await validateFixtures(dir)).to.deep.equal([]);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).response.generations[0].text).to.equal("their answer");
  });

  it("returns one problem for a missing directory, and for a path that is a file", async () => {
    const missing = path.join(dir, "nope");
    expect(await validateFixtures(missing)).to.deep.equal([{ file: missing, problem: "does not exist (no fixture directory here)" }]);
    const file = path.join(dir, "plain.txt");
    fs.writeFileSync(file, "x");
    expect(await validateFixtures(file)).to.deep.equal([{ file, problem: "is not a directory" }]);
  });

  it("resolves a relative directory against cwd and reports absolute paths", async () => {
    const f = writeFixture(dir, "rel");
    fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace('"rel"', '"REL"'));
    const problems = await validateFixtures(path.relative(process.cwd(), dir));
    expect(problems.map((p) => p.file)).to.deep.equal([f]);
  });

  describe("embedding fixtures of one model whose vectors differ in length", () => {
    /** An embedding fixture as the recorder writes it; returns its file. */
    function embedding(text: string, length: number, at: string, request: Record<string, unknown> = {}, vector?: unknown): string {
      const req = { provider: "ollama", model: "nomic-embed-text", options: { truncate: false }, input_type: "document", text, ...request };
      const hash = requestHash("embedding", req);
      const file = path.join(dir, `${hash}.json`);
      const response = { vector: vector ?? Array.from({ length }, (_, i) => i / 8) };
      fs.writeFileSync(file, formatFixture({ schemaVersion: SCHEMA_VERSION, kind: "embedding", hash, recordedAt: at, request: req, response }));
      return file;
    }
    const DAY1 = "2026-01-01T00:00:00.000Z";
    const DAY2 = "2026-02-01T00:00:00.000Z";
    const DAY3 = "2026-03-01T00:00:00.000Z";

    it("are one problem, on the first file of the older length, naming every file by length; a query counts with the documents", async () => {
      const docs = ["one", "two"].map((t) => embedding(t, 8, DAY1)).sort();
      const query = embedding("which one?", 16, DAY2, { input_type: "query" });
      const problems = await validateFixtures(dir);
      expect(problems).to.deep.equal([
        {
          file: docs[0],
          problem:
            `holds a vector of 8 numbers, but the embedding fixtures of ollama model "nomic-embed-text" (options {"truncate":false}) with the same request parameters hold vectors of 2 lengths (2 of 8, 1 of 16), ` +
            `so a call that replays some of each returns them mixed. One model's vectors all have one length: the model behind "nomic-embed-text" changed between recordings (a model pulled again, another server behind the base URL). ` +
            `By length: 8 numbers (older): ${docs.join(", ")}; 16 numbers (the newest recording): ${query}. ` +
            `Fix it: delete the older ones and record them again: rm ${docs.map((f) => JSON.stringify(f)).join(" ")} && ${rerecordCommand(undefined, undefined)}; ` +
            `or run the tests that embed with this model under LANGCHAIN_VCR_MODE=record_always`,
        },
      ]);
    });

    it("are not compared across models, dimensions or options; base64 vectors and damaged ones are left out", async () => {
      embedding("one", 8, DAY1);
      embedding("one", 16, DAY2, { model: "mxbai-embed-large" });
      embedding("one", 4, DAY2, { dimensions: 4 });
      embedding("one", 12, DAY2, { options: { truncate: true } });
      embedding("one", 0, DAY3, { provider: "openai", model: "text-embedding-3-small", options: { encodingFormat: "base64" } }, "AACAPwAAAEA=");
      expect(await validateFixtures(dir)).to.deep.equal([]);
      const damaged = embedding("two", 0, DAY3, {}, [1, "two"]);
      expect((await validateFixtures(dir)).map((p) => p.file)).to.deep.equal([damaged]); // its own problem only
    });

    it("three lengths: the two older ones are listed to delete, the newest recording's kept", async () => {
      const eight = embedding("one", 8, DAY1);
      const twelve = embedding("two", 12, DAY2);
      const sixteen = embedding("three", 16, DAY3);
      const [problem] = await validateFixtures(dir);
      expect(problem.file).to.equal(eight);
      expect(problem.problem).to.include(`(1 of 8, 1 of 12, 1 of 16)`);
      expect(problem.problem).to.include(
        `By length: 8 numbers (older): ${eight}; 12 numbers (older): ${twelve}; 16 numbers (the newest recording): ${sixteen}. `,
      );
      expect(problem.problem).to.include(`rm ${JSON.stringify(eight)} ${JSON.stringify(twelve)} && `);
    });
  });
});
