/**
 * docs/providers.md, "String models": `createAgent({ model: "anthropic:…" })` and `initChatModel`
 * take no constructor option from a test, so a test points them at a fake through the
 * environment variable each client reads, or, for Google GenAI and Mistral (which read none), an
 * option of initChatModel. For each one the docs name: under vcr.install() the string model
 * reaches the loopback fake through it and is recorded (1 request, 1 fixture), then replayed
 * under replay_only (0 requests).
 */
import { expect } from "chai";
import { initChatModel } from "langchain/chat_models/universal";
import { Vcr } from "../../src/index";
import { withEnv } from "../helpers/env";
import { startFakeProvider } from "../helpers/fakeProvider";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { startAnthropicFake } from "./fakes/anthropic";
import { startGroqFake } from "./fakes/groq";
import { ANTHROPIC_KEY } from "./specs/anthropic";
import { startGoogleFake } from "./fakes/google";
import { startMistralFake } from "./fakes/mistral";
import { GOOGLE_KEY } from "./specs/google";
import { GROQ_KEY } from "./specs/groq";
import { MISTRAL_KEY } from "./specs/mistral";

interface Case {
  model: string;
  /** The environment variable the URL goes in; or `option`, the initChatModel option (providers that read none). */
  variable?: string;
  option?: string;
  /** Starts the fake; its URL as the variable takes it, and its request count. */
  start(): Promise<{ url: string; count(): number; close(): Promise<void> }>;
  key?: Record<string, string>;
}

const cases: Case[] = [
  {
    model: "openai:gpt-4o-mini",
    variable: "OPENAI_BASE_URL",
    key: { OPENAI_API_KEY: "test-key" },
    start: async () => {
      const f = await startFakeProvider({});
      return { url: f.openaiBaseURL, count: () => f.count(), close: () => f.close() };
    },
  },
  ...["ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL"].map((variable) => ({
    model: "anthropic:claude-haiku-4-5",
    variable,
    key: { ANTHROPIC_API_KEY: ANTHROPIC_KEY },
    start: startAnthropicFake,
  })),
  { model: "groq:llama-3.3-70b-versatile", variable: "GROQ_BASE_URL", key: { GROQ_API_KEY: GROQ_KEY }, start: startGroqFake },
  {
    model: "ollama:llama3.2",
    variable: "OLLAMA_BASE_URL",
    start: async () => {
      const f = await startFakeProvider({});
      return { url: f.ollamaBaseUrl, count: () => f.count(), close: () => f.close() };
    },
  },
  { model: "google-genai:gemini-2.5-flash", option: "baseUrl", key: { GOOGLE_API_KEY: GOOGLE_KEY }, start: startGoogleFake },
  { model: "mistralai:mistral-small-latest", option: "serverURL", key: { MISTRAL_API_KEY: MISTRAL_KEY }, start: startMistralFake },
];

describe("a string model pointed at a fake by its environment variable, under vcr.install()", function () {
  this.timeout(30000);
  after(removeTmpDirs);

  for (const c of cases) {
    it(`${c.model} with ${c.variable ?? `the option ${c.option}`}: recorded (1 request, 1 fixture), then replayed under replay_only (0 requests)`, async () => {
      const fake = await c.start();
      const dir = tmpDir();
      const ask = async (mode: "record_or_replay" | "replay_only") => {
        const uninstall = new Vcr({ dir, mode }).install();
        try {
          const model = await initChatModel(c.model, { maxRetries: 0, ...(c.option ? { [c.option]: fake.url } : {}) });
          return String((await model.invoke("a question through the environment")).content);
        } finally {
          uninstall();
        }
      };
      try {
        // the mode is the one each Vcr is given, whatever the suite runs under
        await withEnv({ ...(c.variable ? { [c.variable]: fake.url } : {}), ...c.key, LANGCHAIN_VCR_MODE: undefined }, async () => {
          const recorded = await ask("record_or_replay");
          expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([1, 1]);
          expect(await ask("replay_only")).to.equal(recorded);
          expect(fake.count()).to.equal(1);
        });
      } finally {
        await fake.close();
      }
    });
  }
});
