/**
 * Two copies of langchain-vcr in one process (two installed versions, e.g. a shared test-utils
 * package and the project's own), over the one @langchain/core they share as a peer. The copy
 * that loads first patches core (the patches are marked once per prototype); the install()
 * of the other must still be seen by those patches: never a model with no cache going live
 * under `replay_only`.
 */
import { expect } from "chai";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { OpenAIEmbeddings } from "@langchain/openai";
import { openai, TEST_KEY } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

const SRC = path.resolve(__dirname, "../../src") + path.sep;

/** A second, fresh evaluation of the package's modules (the first stays in require.cache untouched). */
function secondCopy(): typeof import("../../src/index") {
  const saved = Object.entries(require.cache).filter(([file]) => file.startsWith(SRC));
  for (const [file] of saved) delete require.cache[file];
  try {
    return require("../../src/index") as typeof import("../../src/index");
  } finally {
    for (const [file] of Object.entries(require.cache)) if (file.startsWith(SRC)) delete require.cache[file];
    for (const [file, m] of saved) require.cache[file] = m;
  }
}

describe("vcr.install() from a second copy of langchain-vcr in the process", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("a model with no cache never reaches the provider under replay_only: 0 requests, 0 fixtures", async () => {
    const other = secondCopy();
    expect(other.Vcr).not.to.equal(Vcr); // really another copy
    const uninstall = new other.Vcr({ dir, mode: "replay_only" }).install();
    let error: unknown;
    try {
      await openai(fake, undefined).invoke("hi");
    } catch (e) {
      error = e;
    } finally {
      uninstall();
    }
    expect(fake.count(), "requests to the fake").to.equal(0);
    expect(fixtureFiles(dir)).to.have.length(0);
    expect((error as Error).name, String(error)).to.equal("VcrMissError");
  });

  it("a model with no cache records through the other copy's install(), and replays through this copy's cache: 0 requests", async () => {
    const other = secondCopy();
    const uninstall = new other.Vcr({ dir, mode: "record_or_replay" }).install();
    let recorded: string;
    try {
      recorded = String((await openai(fake, undefined).invoke("hi")).content);
    } finally {
      uninstall();
    }
    expect(fixtureFiles(dir)).to.have.length(1);
    fake.reset();
    const replayed = await openai(fake, new Vcr({ dir, mode: "replay_only" }).cache).invoke("hi");
    expect(fake.count(), "requests on replay").to.equal(0);
    expect(replayed.content).to.equal(recorded);
  });

  it("embeddings whose class both copies scanned: recorded once through one copy's install(), replayed through the other's with 0 requests", async () => {
    const embeddings = () =>
      new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } });
    new Vcr({ dir }).install()(); // this copy wraps the class it finds
    const other = secondCopy();
    let uninstall = new other.Vcr({ dir, mode: "record_or_replay" }).install(); // the other copy finds it too
    let recorded: number[];
    try {
      recorded = await embeddings().embedQuery("hello");
    } finally {
      uninstall();
    }
    expect(fake.count()).to.equal(1);
    expect(fixtureFiles(dir)).to.have.length(1);
    uninstall = new Vcr({ dir, mode: "replay_only" }).install();
    try {
      expect(await embeddings().embedQuery("hello")).to.deep.equal(recorded);
    } finally {
      uninstall();
    }
    expect(fake.count()).to.equal(1);
  });

  it("a second install() from either copy is a VcrConfigError: one Vcr at a time in the process", () => {
    const other = secondCopy();
    const uninstall = new Vcr({ dir }).install();
    try {
      expect(() => new other.Vcr({ dir: dir + "-b" }).install()).to.throw(/vcr\.install\(\) was called while another Vcr is installed/);
    } finally {
      uninstall();
    }
  });
});
