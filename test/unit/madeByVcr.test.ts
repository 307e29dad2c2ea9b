/**
 * VcrCache and VcrEmbeddings are made by a Vcr (`vcr.cache`, `vcr.embeddings(inner)`):
 * constructed directly, each fails at once with a VcrConfigError saying how to get one, not with
 * a TypeError on its first call (src/adapters/madeByVcr.ts).
 */
import { expect } from "chai";
import { OpenAIEmbeddings } from "@langchain/openai";
import { Vcr, VcrCache, VcrConfigError, VcrEmbeddings } from "../../src/index";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("VcrCache and VcrEmbeddings constructed directly", () => {
  after(removeTmpDirs);
  const inner = new OpenAIEmbeddings({ apiKey: "sk-test", configuration: { baseURL: "http://127.0.0.1:9/v1" } });

  it("new VcrEmbeddings(inner) and new VcrCache() throw a VcrConfigError naming what to call instead", () => {
    const ctor = VcrEmbeddings as unknown as new (...a: unknown[]) => unknown;
    const cache = VcrCache as unknown as new (...a: unknown[]) => unknown;
    for (const [make, fix] of [
      [() => new ctor(inner), "vcr.embeddings(yourEmbeddings)"],
      [() => new cache(), "vcr.cache (pass it as `cache:` to the model)"],
    ] as const) {
      let thrown: unknown;
      try {
        make();
      } catch (e) {
        thrown = e;
      }
      expect(thrown).to.be.instanceOf(VcrConfigError);
      expect((thrown as Error).message)
        .to.include("was called directly")
        .and.include(fix)
        .and.include('new Vcr({ dir: "cassettes" })');
    }
  });

  it("the ones a Vcr makes are instances of the exported classes", () => {
    const vcr = new Vcr({ dir: tmpDir(), mode: "replay_only" });
    expect(vcr.cache).to.be.instanceOf(VcrCache);
    expect(vcr.embeddings(inner)).to.be.instanceOf(VcrEmbeddings);
  });
});
