/** AzureChatOpenAI against a loopback Azure OpenAI (chat completions + SSE under the deployment's path; embeddings). */
import { expect } from "chai";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { Vcr } from "../../src/index";
import * as path from "node:path";
import { collectStats } from "../../src/cli/stats";
import { renderFixture } from "../../src/cli/render";
import { fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { startAzureFake } from "./fakes/azure";
import { fieldPairs, SAMPLING, sharedBusts } from "./keyTables";
import { recordedRequest } from "./request";
import { API_VERSION, AZURE_KEY, spec } from "./specs/azure";
import { describeProvider } from "./suite";

describeProvider(
  "AzureChatOpenAI (chat completions under the deployment's path: JSON, SSE; AzureOpenAIEmbeddings)",
  spec,
  {
    busts: {
      ...SAMPLING,
      ...fieldPairs({
        "max tokens (maxTokens)": [{ maxTokens: 100 }, { maxTokens: 200 }],
        "the deployment (same model name)": [{}, { azureOpenAIApiDeploymentName: "gpt-35-cheap" }],
        "the deployment given as deploymentName": [{}, { azureOpenAIApiDeploymentName: undefined, deploymentName: "gpt-4o-eu" }],
        "model name (same deployment)": [{}, { model: "gpt-4o-mini" }],
      }),
      ...sharedBusts({ stop: true, toolChoices: ["auto", "required"], images: true }),
    },
    same: {
      "two API keys": [(c) => c().invoke("x"), (c) => c({ azureOpenAIApiKey: "fedcba9876543210fedcba9876543210" }).invoke("x")],
      "two API versions (a query parameter, not the request)": [(c) => c().invoke("x"), (c) => c({ azureOpenAIApiVersion: "2025-01-01-preview" }).invoke("x")],
      "the endpoint or a base path to the same deployment": [
        (c) => c().invoke("x"),
        (c, url) => c({ azureOpenAIEndpoint: undefined, azureOpenAIBasePath: `${url}/openai/deployments` }).invoke("x"),
      ],
    },
  },
  () => {
    it("the key holds the deployment, never the key, the endpoint or the API version", async () => {
      const request = await recordedRequest(spec, (c) => c().invoke("x"));
      expect(request.deployment).to.equal("gpt-4o-prod");
      expect(request.model).to.equal("gpt-4o");
      const json = JSON.stringify(request);
      for (const leak of [AZURE_KEY, API_VERSION, "127.0.0.1"]) expect(json, leak).to.not.include(leak);
    });

    it("two deployments asked the same thing: each records its own answer from its own deployment, and replays it with 0 requests", async function () {
      this.timeout(20000);
      const fake = await startAzureFake();
      const dir = tmpDir();
      try {
        const ask = async (mode: "record_or_replay" | "replay_only") => {
          const vcr = new Vcr({ dir, mode });
          const prod = spec.chat(fake.url, vcr.cache, { model: undefined });
          const cheap = spec.chat(fake.url, vcr.cache, { model: undefined, azureOpenAIApiDeploymentName: "gpt-35-cheap" });
          return [(await prod.invoke("Which model are you?")).text, (await cheap.invoke("Which model are you?")).text];
        };
        fake.enqueue({ text: "I am the prod deployment." }, { text: "I am the cheap deployment." });
        const recorded = await ask("record_or_replay");
        expect(fake.deployments()).to.deep.equal(["gpt-4o-prod", "gpt-35-cheap"]);
        expect(recorded).to.deep.equal(["I am the prod deployment.", "I am the cheap deployment."]);
        expect(fixtureFiles(dir)).to.have.length(2);
        const replayed = await ask("replay_only");
        expect(fake.count(), "requests after the replay").to.equal(2);
        expect(replayed).to.deep.equal(recorded);
        // a miss, stats and show name the deployment that answers, not AzureChatOpenAI's default model
        const vcr = new Vcr({ dir, mode: "replay_only" });
        const miss = await spec
          .chat(fake.url, vcr.cache, { model: undefined, azureOpenAIApiDeploymentName: "gpt-35-cheap" })
          .invoke("Which model are you now?")
          .catch((e: Error) => e);
        expect((miss as Error).message.split("\n")[0]).to.include('from AzureChatOpenAI (deployment "gpt-35-cheap", model "gpt-3.5-turbo")');
        const stats = collectStats(dir, path.join(dir, "no-ledgers"), dir);
        expect(Object.keys(stats.byModel).sort()).to.deep.equal(["deployment gpt-35-cheap", "deployment gpt-4o-prod"]);
        const shown = renderFixture(readFixtures(dir)[0], "f.json", []);
        expect(shown).to.match(/deployment: gpt-(4o-prod|35-cheap) \(Azure: it decides which model answers\)/);
        expect(fake.count()).to.equal(2);
      } finally {
        await fake.close();
        removeTmpDirs();
      }
    });

    it("two deployments asked the same thing with tools bound (bindTools, as createAgent binds them): each its own fixture and answer (trial 48: the deployment was left out of a tool-bound call's key)", async function () {
      this.timeout(20000);
      const fake = await startAzureFake();
      const dir = tmpDir();
      try {
        const lookup = tool(async () => "ok", { name: "lookup", description: "Looks a thing up", schema: z.object({ q: z.string() }) });
        const ask = async (mode: "record_or_replay" | "replay_only") => {
          const vcr = new Vcr({ dir, mode });
          const prod = spec.chat(fake.url, vcr.cache, { model: undefined }).bindTools!([lookup]);
          const cheap = spec.chat(fake.url, vcr.cache, { model: undefined, azureOpenAIApiDeploymentName: "gpt-35-cheap" }).bindTools!([lookup]);
          return [(await prod.invoke("Which model are you?")).text, (await cheap.invoke("Which model are you?")).text];
        };
        fake.enqueue({ text: "I am the prod deployment." }, { text: "I am the cheap deployment." });
        const recorded = await ask("record_or_replay");
        expect(fake.deployments()).to.deep.equal(["gpt-4o-prod", "gpt-35-cheap"]);
        expect(recorded).to.deep.equal(["I am the prod deployment.", "I am the cheap deployment."]);
        expect(
          readFixtures(dir)
            .map((f) => (f.request as { deployment?: string }).deployment)
            .sort(),
        ).to.deep.equal(["gpt-35-cheap", "gpt-4o-prod"]);
        expect(await ask("replay_only")).to.deep.equal(recorded);
        expect(fake.count(), "requests after the replay").to.equal(2);
      } finally {
        await fake.close();
        removeTmpDirs();
      }
    });
  },
);
