/**
 * `vcr.install()` in an ES-module process (the built ESM entry; @langchain/openai and core
 * loaded as ES modules, as in an ESM test file or under vitest): a ChatOpenAI with no cache,
 * an OpenAIEmbeddings (reached through the known integrations' ESM entries) and a ToolCall
 * record, then replay in a new process with the fake stopped. The child runs the built
 * package (`npm run build`; npm test builds first).
 */
import { expect } from "chai";
import * as path from "node:path";
import { builtBin, ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("vcr.install() in an ES-module process", function () {
  this.timeout(120000);
  let fake: FakeProvider | undefined;
  before(() => builtBin());
  afterEach(async () => {
    await fake?.close();
    removeTmpDirs();
  });

  const child = (dir: string, url: string, mode: string) =>
    runChild(process.execPath, [path.join(__dirname, "scripts", "installEsm.mjs")], {
      cwd: ROOT,
      env: {
        ...process.env,
        VCR_ENTRY: path.join(ROOT, "dist/esm/index.mjs"),
        FIXTURE_DIR: dir,
        FAKE_URL: url,
        LANGCHAIN_VCR_MODE: mode,
        LANGCHAIN_VCR_QUIET: "1",
      },
      timeoutMs: 60000,
    });

  it("chat, embeddings and a model-initiated tool call record, then replay in a new process with the fake stopped", async () => {
    fake = await startFakeProvider();
    const dir = tmpDir();
    const rec = await child(dir, fake.openaiBaseURL, "record_or_replay");
    expect(rec.status, rec.stderr).to.equal(0);
    const recorded = JSON.parse(rec.stdout.trim().split("\n").pop()!);
    expect(recorded).to.deep.include({ chat: "echo: hello from ESM", tool: "sunny in Oslo", runs: 1 });
    expect(fake.count()).to.equal(2);
    expect(
      readFixtures(dir)
        .map((f) => f.kind)
        .sort(),
    ).to.deep.equal(["chat", "embedding", "tool"]);
    expect(rec.stderr).not.to.match(/ExperimentalWarning/);

    const url = fake.openaiBaseURL;
    await fake.close();
    fake = undefined;
    const replay = await child(dir, url, "replay_only");
    expect(replay.status, replay.stderr).to.equal(0);
    const replayed = JSON.parse(replay.stdout.trim().split("\n").pop()!);
    expect(replayed).to.deep.equal({ ...recorded, runs: 0, stats: { replayed: 3, recorded: 0, bypassed: 0, missed: 0 } });
  });
});
