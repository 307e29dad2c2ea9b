/**
 * In an ES-module process, `install()` loads the module files that hold an integration's
 * Embeddings classes, once learned, instead of its whole entry (`src/install/embeddingsFiles.ts`;
 * @langchain/mistralai's entry takes ~0.5 s, its embeddings module ~2 ms, in every vitest test
 * file). The child runs the built ESM entry in a temporary project whose node_modules links the
 * repository's LangChain packages, against the loopback Mistral fake.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin, ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { startMistralFake } from "../providers/fakes/mistral";
import type { Fake } from "../providers/fakes/base";

const SCRIPT = path.join(__dirname, "scripts", "installEmbeddingsFiles.mjs");
const PATCHED_SCRIPT = path.join(__dirname, "scripts", "installPatchedIntegration.mjs");
const MISTRAL = fs.realpathSync(path.join(ROOT, "node_modules/@langchain/mistralai"));

describe("vcr.install() in an ES-module process: an integration's Embeddings files, once learned, instead of its whole entry", function () {
  this.timeout(120000);
  let fake: Fake | undefined;
  before(() => builtBin());
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    removeTmpDirs();
  });

  /**
   * A project whose node_modules links core, openai and mistralai (with `copyMistral`, a copy of mistralai's own
   * files, which a test may change, beside a link to its SDK); its learned files' directory.
   */
  function project({ copyMistral = false } = {}): { dir: string; cache: string } {
    const dir = tmpDir("vcr-learned-");
    const linked = copyMistral
      ? ["@langchain/core", "@langchain/openai", "@mistralai/mistralai"]
      : ["@langchain/core", "@langchain/openai", "@langchain/mistralai"];
    for (const p of linked) {
      fs.mkdirSync(path.dirname(path.join(dir, "node_modules", p)), { recursive: true });
      fs.symlinkSync(fs.realpathSync(path.join(ROOT, "node_modules", p)), path.join(dir, "node_modules", p), "dir");
    }
    if (copyMistral) fs.cpSync(MISTRAL, path.join(dir, "node_modules/@langchain/mistralai"), { recursive: true });
    // in the project, so that its imports resolve the project's packages
    for (const script of [SCRIPT, PATCHED_SCRIPT]) fs.copyFileSync(script, path.join(dir, path.basename(script)));
    return { dir, cache: path.join(dir, "node_modules/.cache/langchain-vcr/embeddings-files.v1") };
  }
  /** Runs `script` (copied into the project) with the project as the working directory. */
  const run = (dir: string, fixtures: string, mode: string, { script = SCRIPT, step = "" } = {}) =>
    runChild(process.execPath, [path.join(dir, path.basename(script))], {
      cwd: dir,
      env: {
        ...process.env,
        VCR_ENTRY: path.join(ROOT, "dist/esm/index.mjs"),
        FIXTURE_DIR: fixtures,
        FAKE_URL: fake!.url,
        STEP: step,
        LANGCHAIN_VCR_MODE: mode,
        LANGCHAIN_VCR_QUIET: "1",
      },
      timeoutMs: 60000,
    });
  const outcome = (r: { status: number | null; stdout: string; stderr: string }) => {
    expect(r.status, r.stderr).to.equal(0);
    return JSON.parse(r.stdout.trim().split("\n").pop()!) as { entryLoaded: boolean; dims: number; stats: { replayed: number; recorded: number } };
  };
  /** The learned list for mistralai's ESM entry (the repository's, or `entry`), if any. */
  const learnedFor = (cache: string, entry = path.join(MISTRAL, "dist/index.js")) =>
    (fs.existsSync(cache) ? fs.readdirSync(cache) : [])
      .map((f) => JSON.parse(fs.readFileSync(path.join(cache, f), "utf8")) as { entry: string; files: string[] })
      .find((k) => k.entry === entry);

  it("the first process loads the entry and learns dist/embeddings.js; the next loads only that, and MistralAIEmbeddings from the entry still replays (0 requests)", async () => {
    fake = await startMistralFake();
    const { dir, cache } = project();
    const fixtures = path.join(dir, "cassettes");
    const first = outcome(await run(dir, fixtures, "record_or_replay"));
    expect(first).to.deep.include({ entryLoaded: true });
    expect(first.stats).to.deep.include({ recorded: 1, replayed: 0 });
    expect(fake.count()).to.equal(1);
    expect(learnedFor(cache)?.files).to.deep.equal([path.join(MISTRAL, "dist/embeddings.js")]);

    const second = outcome(await run(dir, fixtures, "replay_only"));
    expect(second).to.deep.include({ entryLoaded: false, dims: first.dims });
    expect(second.stats).to.deep.include({ recorded: 0, replayed: 1 });
    expect(fake.count(), "requests after the first process").to.equal(1);
  });

  it("a package patched on disk after this process loaded it (patch-package, an install under way): nothing is learned then, so the patched class, exported from the entry, is recorded, then replayed with 0 requests (before: the old list was kept under the new stamps, and the class went live under replay_only)", async () => {
    fake = await startMistralFake();
    const { dir, cache } = project({ copyMistral: true });
    const fixtures = path.join(dir, "cassettes");
    const patched = (step: string, mode: string) => run(dir, fixtures, mode, { script: PATCHED_SCRIPT, step });
    outcome(await patched("patch", "record_or_replay"));
    const copied = fs.realpathSync(path.join(dir, "node_modules/@langchain/mistralai/dist/index.js"));
    expect(learnedFor(cache, copied), "a list learned from what was loaded before the patch").to.equal(undefined);
    const recorded = outcome(await patched("use", "record_or_replay"));
    expect(recorded.stats).to.deep.include({ recorded: 1, replayed: 0 });
    expect(fake.count()).to.equal(1);
    const replayed = outcome(await patched("use", "replay_only"));
    expect(replayed.stats).to.deep.include({ recorded: 0, replayed: 1 });
    expect(fake.count(), "requests after recording").to.equal(1);
  });

  const forged: [string, (files: string[]) => string[]][] = [
    ["names a file that holds no Embeddings class (a package patched in place, a forged list)", () => [path.join(MISTRAL, "dist/utils.js")]],
    // what a process whose copy of core was not patched would have kept, had it kept anything: no class found, no file
    ["is empty", () => []],
  ];
  for (const [what, files] of forged)
    it(`a learned list that ${what}: the entry is loaded, and the embeddings still replay (0 requests)`, async () => {
      fake = await startMistralFake();
      const { dir, cache } = project();
      const fixtures = path.join(dir, "cassettes");
      outcome(await run(dir, fixtures, "record_or_replay"));
      const entry = path.join(MISTRAL, "dist/index.js");
      const name = fs.readdirSync(cache).find((f) => (JSON.parse(fs.readFileSync(path.join(cache, f), "utf8")) as { entry: string }).entry === entry)!;
      const kept = JSON.parse(fs.readFileSync(path.join(cache, name), "utf8")) as { files: string[] };
      fs.writeFileSync(path.join(cache, name), JSON.stringify({ ...kept, files: files(kept.files) }));

      const again = outcome(await run(dir, fixtures, "replay_only"));
      expect(again).to.deep.include({ entryLoaded: true });
      expect(again.stats).to.deep.include({ recorded: 0, replayed: 1 });
      expect(fake.count(), "requests after the first process").to.equal(1);
    });
});
