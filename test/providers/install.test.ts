/**
 * vcr.install() with each provider's real clients (built with no cache, embeddings unwrapped):
 * under replay_only and no fixtures, invoke, .stream() and the embeddings each fail with a
 * VcrMissError and make 0 requests to the provider's fake; recorded under install(), they
 * replay with 0 requests, and no credential the clients hold is on disk.
 */
import { expect } from "chai";
import { Vcr } from "../../src/index";
import { allBytes, fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import type { Fake } from "./fakes/base";
import type { ProviderSpec } from "./spec";
import { spec as anthropic } from "./specs/anthropic";
import { spec as azure } from "./specs/azure";
import { spec as bedrock } from "./specs/bedrock";
import { spec as google } from "./specs/google";
import { spec as groq } from "./specs/groq";
import { spec as mistral } from "./specs/mistral";

async function missOf(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (e) {
    return (e as Error).name;
  }
  return undefined;
}

for (const spec of [anthropic, azure, google, bedrock, groq, mistral] as ProviderSpec[]) {
  describe(`${spec.name}: vcr.install() under replay_only`, () => {
    let fake: Fake;
    let dir: string;
    let uninstall: () => void;
    beforeEach(async () => {
      fake = await spec.start();
      dir = tmpDir();
      uninstall = new Vcr({ dir, mode: "replay_only" }).install();
    });
    afterEach(async () => {
      uninstall();
      await fake.close();
      removeTmpDirs();
    });

    it("invoke and .stream() of a model with no cache: VcrMissError, 0 requests", async () => {
      const model = spec.chat(fake.url, undefined);
      expect(await missOf(() => model.invoke("hi"))).to.equal("VcrMissError");
      expect(
        await missOf(async () => {
          for await (const _ of await model.stream("hi")) void _;
        }),
      ).to.equal("VcrMissError");
      expect(fake.count()).to.equal(0);
    });

    if (spec.embeddings) {
      it("embedQuery and embedDocuments of unwrapped embeddings: VcrMissError, 0 requests", async () => {
        const embeddings = spec.embeddings!(fake.url);
        expect(await missOf(() => embeddings.embedQuery("hi"))).to.equal("VcrMissError");
        expect(await missOf(() => embeddings.embedDocuments(["a", "b"]))).to.equal("VcrMissError");
        expect(fake.count()).to.equal(0);
      });
    }

    it("recorded under install() (invoke, embeddings), then replayed with 0 requests; no credential the clients hold on disk", async () => {
      uninstall();
      uninstall = new Vcr({ dir, mode: "record_or_replay" }).install();
      const answer = (await spec.chat(fake.url, undefined).invoke("hi")).content;
      const vectors = spec.embeddings ? await spec.embeddings(fake.url).embedQuery("hi") : [];
      const requests = fake.count();
      expect(requests).to.equal(spec.embeddings ? 2 : 1);
      expect(fixtureFiles(dir)).to.have.length(requests);
      uninstall();
      uninstall = new Vcr({ dir, mode: "replay_only" }).install();
      expect((await spec.chat(fake.url, undefined).invoke("hi")).content).to.deep.equal(answer);
      if (spec.embeddings) expect(await spec.embeddings(fake.url).embedQuery("hi")).to.deep.equal(vectors);
      expect(fake.count()).to.equal(requests);
      const bytes = allBytes(dir);
      for (const c of spec.credentials) expect(bytes).not.to.include(c);
    });
  });
}
