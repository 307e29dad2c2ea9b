/**
 * vcr.install() and an Embeddings subclass that no module exports (defined in the test, as in
 * an ES-module or vitest project where no user module is scanned) which overrides embedQuery /
 * embedDocuments and calls super: the integration's own methods (OpenAIEmbeddings', reached)
 * record and replay the call once — under replay_only it is a VcrMissError with 0 requests,
 * never a live call because the instance's most-derived method is not the wrapped one.
 */
import { expect } from "chai";
import { OpenAIEmbeddings } from "@langchain/openai";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { TEST_KEY } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

/** Prefixes each text (e5-style): not idempotent, so doing the override's work twice would show on the wire. */
class PrefixedEmbeddings extends OpenAIEmbeddings {
  async embedQuery(text: string): Promise<number[]> {
    return super.embedQuery(`query: ${text}`);
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return super.embedDocuments(texts.map((t) => `passage: ${t}`));
  }
}

describe("vcr.install(): an unexported Embeddings subclass that overrides its methods and calls super", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  const make = () =>
    new PrefixedEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } });

  async function under<T>(mode: "replay_only" | "record_or_replay", run: () => Promise<T>): Promise<T> {
    const uninstall = new Vcr({ dir, mode }).install();
    try {
      return await run();
    } finally {
      uninstall();
    }
  }

  it("replay_only with no fixture: VcrMissError for embedQuery and embedDocuments, 0 requests", async () => {
    const embeddings = make();
    const names = await under("replay_only", async () => [
      await embeddings.embedQuery("hello").then(String, (e: Error) => e.name),
      await embeddings.embedDocuments(["a", "b"]).then(String, (e: Error) => e.name),
    ]);
    expect(names).to.deep.equal(["VcrMissError", "VcrMissError"]);
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.have.length(0);
  });

  it("records once (one fixture per text), then replays with 0 requests", async () => {
    const recorded = await under("record_or_replay", async () => [await make().embedQuery("hello"), await make().embedDocuments(["a", "b"])]);
    const requests = fake.count();
    expect(requests).to.be.greaterThan(0);
    expect(fixtureFiles(dir)).to.have.length(3);
    const sent = fake.requests.map((r) => JSON.stringify((r.body as { input?: unknown }).input)).join(" ");
    expect(sent)
      .to.include("query: hello")
      .and.include("passage: a")
      .and.not.match(/query: query|passage: passage/);
    const replayed = await under("replay_only", async () => [await make().embedQuery("hello"), await make().embedDocuments(["a", "b"])]);
    expect(fake.count()).to.equal(requests);
    expect(replayed).to.deep.equal(recorded);
  });
});
