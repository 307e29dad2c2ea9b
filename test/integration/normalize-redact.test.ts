import { expect } from "chai";
import * as fs from "node:fs";
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { OpenAIEmbeddings } from "@langchain/openai";
import { z } from "zod";
import { Vcr, VcrConfigError, VcrMissError, VcrRecordError, VcrSecretError, normalizers, withVcr, SCHEMA_VERSION, type Fixture } from "../../src/index";
import { findSecret } from "../../src/secrets";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { allBytes, fixtureFiles, readFixtures } from "../helpers/tmp";
import { Usage } from "../../src/runner/usage";
import { usageSummaryLine } from "../../src/runner/summary";

const lastUserText = (fake: FakeProvider) => {
  const body = fake.requests[fake.requests.length - 1].body;
  const msg = body.messages[body.messages.length - 1];
  return typeof msg.content === "string" ? msg.content : msg.content.map((b: { text?: string }) => b.text ?? "").join("");
};

describe("normalizers", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  const cases: [string, (typeof normalizers)[keyof typeof normalizers] | ReturnType<typeof normalizers.regex>, string, string, string][] = [
    ["isoDate", normalizers.isoDate, "Today is 2026-11-28. Plan my day.", "Today is 2026-11-29. Plan my day.", "Today is <ISO_DATE>. Plan my day."],
    ["isoDateTime", normalizers.isoDateTime, "Now: 2026-11-28T10:15:00Z", "Now: 2026-11-29T08:00:01.123+02:00", "Now: <ISO_DATE_TIME>"],
    ["uuid", normalizers.uuid, "request 1b4e28ba-2fa1-11d2-883f-0016d3cca427", "request 6ba7b810-9dad-11d1-80b4-00c04fd430c8", "request <UUID>"],
    ["epochMillis", normalizers.epochMillis, "ts=1764460800000", "ts=1764547200123", "ts=<EPOCH_MILLIS>"],
    ["regex", normalizers.regex(/order #\d+/, "order #<N>"), "refund order #1234", "refund order #98765", "refund order #<N>"],
  ];

  for (const [name, normalizer, day1, day2, stored] of cases) {
    it(`${name}: recorded on one value, replays on another; the fake got the real text; the file holds the placeholder`, async () => {
      const vcr = new Vcr({ dir, normalizers: [normalizer as (t: string) => string] });
      await withVcr({ mode: "record_or_replay" }, () => openai(fake, vcr.cache).invoke(day1));
      expect(lastUserText(fake)).to.equal(day1);
      const replay = await withVcr({ mode: "replay_only" }, () => openai(fake, vcr.cache).invoke(day2));
      expect(replay.content).to.equal(`echo: ${day1}`);
      expect(fake.count()).to.equal(1);
      expect(readFixtures(dir)[0].request.messages[0].content).to.equal(stored);
      expect(allBytes(dir)).not.to.include(day2);
      // without the normalizer the second value misses
      const plain = new Vcr({ dir });
      const err = await withVcr({ mode: "replay_only" }, () => openai(fake, plain.cache).invoke(day2)).catch((e) => e);
      expect(err).to.be.instanceOf(VcrMissError);
    });
  }

  it("apply to text blocks of multimodal content, in order, composed", async () => {
    const vcr = new Vcr({ dir, normalizers: [normalizers.isoDateTime, normalizers.isoDate] });
    const ask = (text: string) => openai(fake, vcr.cache).invoke([new HumanMessage({ content: [{ type: "text", text }] })]);
    await withVcr({ mode: "record_or_replay" }, () => ask("due 2026-11-28, sent 2026-11-28T09:00:00Z"));
    expect(lastUserText(fake)).to.equal("due 2026-11-28, sent 2026-11-28T09:00:00Z");
    await withVcr({ mode: "replay_only" }, () => ask("due 2030-01-01, sent 2030-01-01T00:00:00Z"));
    expect(fake.count()).to.equal(1);
    expect(readFixtures(dir)[0].request.messages[0].content[0].text).to.equal("due <ISO_DATE>, sent <ISO_DATE_TIME>");
  });

  it("an async normalizer no longer merges every prompt into one key: a different prompt under replay_only is a VcrConfigError, not another prompt's answer", async () => {
    const dated = async (t: string) => t.replace(/\d{4}-\d\d-\d\d/g, "<date>");
    const asyncVcr = () => new Vcr({ dir, normalizers: [dated as never] });
    // before: the first recorded under the key of "{}", and the second replayed its answer
    const recorded = await withVcr({ mode: "record_or_replay" }, () => openai(fake, asyncVcr().cache).invoke("What is the capital of France?")).catch((e) => e);
    const other = await withVcr({ mode: "replay_only" }, () => openai(fake, asyncVcr().cache).invoke("Should I delete the production database?")).catch(
      (e) => e,
    );
    for (const err of [recorded, other]) {
      expect(err).to.be.instanceOf(VcrConfigError);
      expect(err.message.split("\n")[0]).to.equal(
        "langchain-vcr: normalizer #1 (dated) returned a Promise, not a string: normalizers run synchronously, before the request is hashed.",
      );
    }
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });

  it("a normalizer that returns a non-string (undefined, an object, a number) fails the chat or embeddings call with a VcrConfigError naming it; nothing is sent or written", async () => {
    const bad: [string, () => unknown][] = [
      ["undefined", () => undefined],
      ['an object ({"t":"x"})', () => ({ t: "x" })],
      ["a number (42)", () => 42],
    ];
    for (const [got, n] of bad) {
      const vcr = new Vcr({ dir, mode: "record_or_replay", normalizers: [(t) => t, n as never] });
      const emb = vcr.embeddings(
        new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "k", maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }),
      );
      for (const call of [() => openai(fake, vcr.cache).invoke("hello"), () => emb.embedQuery("hello")]) {
        const err = await call().catch((e) => e);
        expect(err, got).to.be.instanceOf(VcrConfigError);
        expect(err.message, got).to.include(`normalizer #2 (anonymous) returned ${got}, not a string`);
        expect(err.message, got).to.include("Fix it: make options.normalizers[1] return the text it was given");
      }
    }
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });

  it("a normalizer that throws is a VcrConfigError naming it, with the thrown error as its cause; nothing is sent", async () => {
    const boom = new Error("norm boom");
    const vcr = new Vcr({
      dir,
      normalizers: [
        function stripIds() {
          throw boom;
        },
      ],
    });
    const err = await withVcr({ mode: "record_or_replay" }, () => openai(fake, vcr.cache).invoke("hello")).catch((e) => e);
    expect(err).to.be.instanceOf(VcrConfigError);
    expect(err.message.split("\n")[0]).to.equal("langchain-vcr: normalizer #1 (stripIds) threw while normalizing a request's text: norm boom");
    expect(err.cause).to.equal(boom);
    expect(fake.count()).to.equal(0);
  });

  it("an invalid regex is a config error", () => {
    expect(() => normalizers.regex("(", "x")).to.throw(/invalid pattern/);
  });
});

describe("redactors", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  const maskCustomer = (f: Fixture): Fixture => JSON.parse(JSON.stringify(f).replace(/CUST-\d+/g, "CUST-XXXX"));

  it("remove a customer id from every byte of the file (request and response), keep two fixtures for two ids, mark them redacted", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay", redactors: [maskCustomer] });
    const live = await openai(fake, vcr.cache).invoke("Balance for CUST-1001?");
    expect(live.content).to.equal("echo: Balance for CUST-1001?"); // the caller gets the real answer
    await openai(fake, vcr.cache).invoke("Balance for CUST-2002?");
    expect(fixtureFiles(dir)).to.have.length(2);
    const bytes = allBytes(dir);
    expect(bytes).not.to.include("CUST-1001");
    expect(bytes).not.to.include("CUST-2002");
    expect(readFixtures(dir).every((f) => f.redacted === true)).to.equal(true);
    // the hash is of the real request: the same question still replays
    await openai(fake, vcr.cache).invoke("Balance for CUST-1001?");
    expect(fake.count()).to.equal(2);
  });

  it("run in order, each on a copy; mutating the copy never changes what the caller receives", async () => {
    const order: string[] = [];
    const vcr = new Vcr({
      dir,
      mode: "record_or_replay",
      redactors: [
        (f) => {
          order.push("first");
          (f.response as { generations: { text: string }[] }).generations[0].text = "MUTATED";
          return f;
        },
        (f) => {
          order.push("second:" + (f.response as { generations: { text: string }[] }).generations[0].text);
          return f;
        },
      ],
    });
    const live = await openai(fake, vcr.cache).invoke("hi");
    expect(live.content).to.equal("echo: hi");
    // before the call they see the request alone (the secret scan of what they leave: the first throws on its missing
    // response, so that check waits for the answer); then once, in order, over the whole fixture
    expect(order).to.deep.equal(["first", "first", "second:MUTATED"]);
  });

  it("a redactor that throws fails the call and writes nothing", async () => {
    const vcr = new Vcr({
      dir,
      mode: "record_or_replay",
      redactors: [
        () => {
          throw new Error("redactor bug");
        },
      ],
    });
    const err = await openai(fake, vcr.cache)
      .invoke("hi")
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrRecordError);
    expect(err.message).to.include("redactor bug");
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.deep.equal([]);
  });

  it("what a redactor returns for hash, kind or schemaVersion is ignored: filed under the computed hash with its real envelope, and it replays", async () => {
    const envelope = { hash: "0".repeat(64), kind: "embedding", schemaVersion: 9 } as const;
    for (const field of ["hash", "kind", "schemaVersion"] as const) {
      const vcr = new Vcr({
        dir,
        mode: "record_or_replay",
        redactors: [(f) => ({ ...f, [field]: envelope[field], request: { ...(f.request as object), user: "<redacted>" } })],
      });
      const live = await openai(fake, vcr.cache).invoke(`hi ${field}`);
      const replayed = await withVcr({ mode: "replay_only" }, () => openai(fake, vcr.cache).invoke(`hi ${field}`));
      expect(replayed.content).to.equal(live.content).and.equal(`echo: hi ${field}`);
    }
    expect(fake.count()).to.equal(3); // each recorded once, replayed with 0 requests
    const files = fixtureFiles(dir);
    expect(files).to.have.length(3);
    for (const [i, f] of readFixtures(dir).entries()) {
      expect([`${f.hash}.json`, f.kind, f.schemaVersion, f.redacted, f.request.user]).to.deep.equal([files[i], "chat", SCHEMA_VERSION, true, "<redacted>"]);
    }
  });

  it("a redactor that returns something other than a fixture object fails the call and writes nothing", async () => {
    for (const bad of ["a string", [1, 2], 42]) {
      const vcr = new Vcr({
        dir,
        mode: "record_or_replay",
        redactors: [
          function returnsJunk() {
            return bad as never;
          },
        ],
      });
      const err = await openai(fake, vcr.cache)
        .invoke(`junk ${JSON.stringify(bad)}`)
        .catch((e) => e);
      expect(err).to.be.instanceOf(VcrRecordError);
      expect(err.message.split("\n")[0]).to.match(
        /^langchain-vcr: redactor #1 \(returnsJunk\) returned (a string|an array|a number), not a fixture object, while preparing chat fixture [0-9a-f]{64}\.$/,
      );
    }
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });
});

describe("redactors: what one returns is checked as replay would read it", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  const refused = async (redactor: (f: Fixture) => unknown, prompt: string, mode: "record_or_replay" | "record_always" = "record_or_replay") => {
    const vcr = new Vcr({ dir, mode, redactors: [redactor as never] });
    return openai(fake, vcr.cache)
      .invoke(prompt)
      .catch((e) => e);
  };

  it("an async redactor fails the call; under record_always the good fixture on disk is left as it was, and still replays", async () => {
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke("hi");
    const [file] = fixtureFiles(dir);
    const before = fs.readFileSync(`${dir}/${file}`, "utf8");
    const maskEmails = async (f: Fixture) => f;
    const err = await refused(maskEmails, "hi", "record_always");
    expect(err).to.be.instanceOf(VcrRecordError);
    expect(err.message.split("\n")[0]).to.match(
      /^langchain-vcr: redactor #1 \(maskEmails\) returned a Promise, not a fixture object: redactors run synchronously, while preparing chat fixture [0-9a-f]{64}\.$/,
    );
    expect(err.message).to.include("Nothing was written (a fixture already on disk is left as it was)");
    expect(fs.readFileSync(`${dir}/${file}`, "utf8")).to.equal(before);
    const replayed = await withVcr({ mode: "replay_only" }, () => openai(fake, new Vcr({ dir }).cache).invoke("hi"));
    expect(replayed.content).to.equal("echo: hi");
  });

  it("a fixture replay would refuse (no request or response, a string for either, a response without generations, a bad recordedAt) fails the call; nothing is written", async () => {
    const cases: [string, (f: Fixture) => unknown, string][] = [
      ["dropResponse", (f) => ({ ...f, response: undefined }), 'has no "response"'],
      ["dropRequest", ({ request: _r, ...rest }) => rest, 'has no "request"'],
      ["responseString", (f) => ({ ...f, response: "masked" }), 'has a "response" that is not an object'],
      ["requestString", (f) => ({ ...f, request: "masked" }), 'has a "request" that is not an object'],
      ["fn", (f) => ({ ...f, response: { generations: () => 1 } }), 'has no "response.generations" array'],
      ["badRecordedAt", (f) => ({ ...f, recordedAt: 5 }), 'has no "recordedAt"'],
    ];
    for (const [name, redactor, problem] of cases) {
      const err = await refused(redactor, `hello ${name}`);
      expect(err, name).to.be.instanceOf(VcrRecordError);
      expect(err.message.split("\n")[0], name).to.match(
        new RegExp(
          `^langchain-vcr: redactor #1 \\(anonymous\\) returned a fixture that ${problem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, while preparing chat fixture [0-9a-f]{64}: replay would refuse it\\.$`,
        ),
      );
    }
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });

  it("a BigInt or a cycle in what a redactor returns is a VcrRecordError naming it, not a raw TypeError or RangeError; nothing is written", async () => {
    const bigint = (f: Fixture) => ({ ...f, response: { ...(f.response as object), n: 10n } });
    const cycle = (f: Fixture) => {
      const o: Record<string, unknown> = {};
      o.o = o;
      return { ...f, response: { ...(f.response as object), o } };
    };
    for (const redactor of [bigint, cycle]) {
      const err = await refused(redactor, `hello ${redactor.name}`);
      expect(err, redactor.name).to.be.instanceOf(VcrRecordError);
      expect(err.message.split("\n")[0], redactor.name).to.match(
        new RegExp(
          `^langchain-vcr: redactor #1 \\(${redactor.name}\\) returned a fixture JSON cannot hold \\(.+\\), while preparing chat fixture [0-9a-f]{64}\\.$`,
        ),
      );
    }
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });
});

describe("secret safety", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  const shapes: Record<string, string> = {
    openai_key: "sk-proj-abcdefghijklmnopqrstuvwxyz012345",
    anthropic_key: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
    bearer_token: "Bearer eyJhbGciOiJIUzI1NiJ9abcdef",
    aws_access_key: "AKIAIOSFODNN7EXAMPLE",
    private_key: "-----BEGIN RSA PRIVATE KEY-----",
  };
  for (const [pattern, secret] of Object.entries(shapes)) {
    it(`a prompt holding a ${pattern} is refused with the field path; nothing is written`, async () => {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      const err = await openai(fake, vcr.cache)
        .invoke(`use ${secret} please`)
        .catch((e) => e);
      expect(err).to.be.instanceOf(VcrSecretError);
      expect(err.code).to.equal("VCR_SECRET");
      expect(err.path).to.equal("$.request.messages[0].content");
      expect(err.message).to.include(`matches the credential pattern "${pattern}"`);
      expect(err.message).to.include("the request was not sent to the provider");
      expect(fake.count(), "refused before the call: a rerun is not billed again").to.equal(0);
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.deep.equal([]);
    });
  }

  it("a tool call whose arguments hold a credential shape is refused before its body runs (it could never be recorded); nothing is written", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    let runs = 0;
    const configure = vcr.tool(
      tool(
        async ({ token }: { token: string }) => {
          runs++;
          return `configured ${token.length}`;
        },
        { name: "configure_webhook", description: "Configure a webhook", schema: z.object({ token: z.string() }) },
      ),
    );
    const err = await configure.invoke({ token: "sk-proj-abcdefghijklmnopqrstuvwxyz012345" }).catch((e) => e);
    expect(err).to.be.instanceOf(VcrSecretError);
    expect(err.message).to.include("the tool's body did not run");
    expect(runs).to.equal(0);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.deep.equal([]);
  });

  it("with a redactor set for another value (emails), a pasted key it leaves in the request is still refused before the call; one that cannot take a request alone leaves it to after the call, which says the request was sent (trial 57 M2)", async () => {
    const key = "sk-proj-abcdefghijklmnopqrstuvwxyz012345";
    const maskEmails = (f: Fixture) => JSON.parse(JSON.stringify(f).replace(/[\w.]+@[\w.]+/g, "<email>")) as Fixture;
    const vcr = new Vcr({ dir, mode: "record_or_replay", redactors: [maskEmails] });
    const err = await openai(fake, vcr.cache)
      .invoke(`mail jo@example.org the key ${key}`)
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrSecretError);
    expect(err.path).to.equal("$.request.messages[0].content");
    expect(err.message)
      .to.include("the request was not sent to the provider")
      .and.include("Fix it: keep the secret out of the prompt, or make the redactors (options.redactors) mask it: they leave it there");
    expect(fake.count(), "refused before the call").to.equal(0);
    // a redactor that masks the key is not refused: the request is recorded with what it leaves
    const maskKeys = (f: Fixture) => JSON.parse(JSON.stringify(f).replace(/sk-proj-\w+/g, "<key>")) as Fixture;
    await openai(fake, new Vcr({ dir, mode: "record_or_replay", redactors: [maskEmails, maskKeys] }).cache).invoke(`mail jo@example.org the key ${key}`);
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([1, 1]);
    expect(allBytes(dir)).not.to.include(key);
    // a redactor that reads the response (none yet before the call) cannot say: the scan after the call refuses it
    const reader = (f: Fixture) => {
      if (!(f.response as { generations?: unknown[] } | null)?.generations?.length) throw new Error("no generations");
      return f;
    };
    const after = await openai(fake, new Vcr({ dir, mode: "record_or_replay", redactors: [reader] }).cache)
      .invoke(`another key ${key}`)
      .catch((e) => e);
    expect(after).to.be.instanceOf(VcrSecretError);
    expect(after.message).to.include("the request that holds it was sent to the provider");
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([2, 1]);
  });

  it("a miss whose request a redactor cannot take alone (it throws) is not shown, and is not said to have no fixture recorded: it was compared with none (review 68 H2)", async () => {
    const answered = (f: Fixture) => {
      if (!(f.response as { generations?: unknown[] }).generations?.length) throw new Error("no answer yet");
      return f;
    };
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke("a recorded question");
    const err = await openai(fake, new Vcr({ dir, mode: "replay_only", redactors: [answered] }).cache)
      .invoke("another question")
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(err.message).to.include("(not shown: a redactor (options.redactors) threw on this request without a response)");
    expect(err.message).to.not.include("is recorded in this directory yet");
  });

  it("a miss whose request holds a secret says recording it would be refused, and prints no plain record command (trial 57 L3)", async () => {
    const vcr = new Vcr({ dir, mode: "replay_only" });
    const err = await openai(fake, vcr.cache)
      .invoke("why does sk-proj-abcdefghijklmnopqrstuvwxyz012345 fail?")
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(err.message)
      .to.include("Recording it will be refused while the request holds what looks like a secret (openai_key at $.request.messages[0].content)")
      .and.not.include("To record it")
      .and.not.include("abcdefghijklmnop");
    expect(fake.count()).to.equal(0);
  });

  it("the client's own API key is refused even when it has no known shape, before the call: invoke, stream and embeddings, 0 requests", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const key = "plain-looking-key-123";
    const err = await openai(fake, vcr.cache, { apiKey: key })
      .invoke(`my key is ${key}`)
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrSecretError);
    expect(err.message).to.include("a credential of the model client itself (its API key");
    expect(err.message).to.include("the request was not sent to the provider");
    expect(err.message).to.include("Fix it: keep the secret out of the prompt, or add a redactor");
    const streamed = await (async () => {
      for await (const _ of await openai(fake, vcr.cache, { apiKey: key }).stream(`stream my key ${key}`)) void _;
    })().catch((e) => e);
    expect(streamed).to.be.instanceOf(VcrSecretError);
    const emb = vcr.embeddings(new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: key, configuration: { baseURL: fake.openaiBaseURL } }));
    const embedded = await emb.embedQuery(`embed my key ${key}`).catch((e) => e);
    expect(embedded).to.be.instanceOf(VcrSecretError);
    expect(fake.count(), "no call was sent").to.equal(0);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.deep.equal([]);
  });

  it("a placeholder key that is a word (trial 39: GROQ_API_KEY=placeholder, recording against a local server): a prompt holding the word is still refused, and the error says the key is a placeholder's shape and that one under 8 characters is never a credential, which then records", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const prompt = "Replace the placeholder in this template: Hello {name}";
    const err = await openai(fake, vcr.cache, { apiKey: "placeholder" })
      .invoke(prompt)
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrSecretError);
    expect(err.message).to.include("That key is a word with no digit, as a placeholder key is, and this fixture holds the word.");
    expect(err.message).to.include(`give the client one under 8 characters (apiKey "unused", or its key variable), which is never taken for a credential.`);
    expect(fake.count(), "no call was sent").to.equal(0);
    await openai(fake, vcr.cache, { apiKey: "unused" }).invoke(prompt);
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([1, 1]);
    // a key of a real key's shape says nothing of placeholders
    const real = await openai(fake, vcr.cache, { apiKey: "plain-looking-key-123" })
      .invoke("my key is plain-looking-key-123")
      .catch((e) => e);
    expect(real).to.be.instanceOf(VcrSecretError);
    expect(real.message).to.not.include("placeholder");
  });

  it("a pattern can be allowed by name; a redactor can mask instead", async () => {
    const allowed = new Vcr({ dir, mode: "record_or_replay", allowSecretPatterns: ["aws_access_key"] });
    await openai(fake, allowed.cache).invoke("docs example AKIAIOSFODNN7EXAMPLE");
    const masked = new Vcr({ dir, mode: "record_or_replay", redactors: [(f) => JSON.parse(JSON.stringify(f).replace(/sk-[\w-]+/g, "sk-REDACTED"))] });
    await openai(fake, masked.cache).invoke("key sk-proj-abcdefghijklmnopqrstuvwxyz012345");
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(allBytes(dir)).not.to.include("sk-proj-abcdefghijklmnopqrstuvwxyz012345");
  });

  it("a stream that spells a key over its chunks (a tool call's arguments, 4 characters a chunk) is refused, read joined; nothing is written", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const key = "sk-proj-CsMehGAkW0123456789abcdefXYZ";
    fake.enqueue({ toolCalls: [{ name: "save_key", args: { key } }] });
    const model = openai(fake, vcr.cache).bindTools([
      { type: "function", function: { name: "save_key", description: "Save", parameters: { type: "object", properties: { key: { type: "string" } } } } },
    ]);
    const err = await (async () => {
      for await (const _ of await model.stream("Make me a key")) void _;
    })().catch((e) => e);
    expect(err).to.be.instanceOf(VcrSecretError);
    expect(err.pattern).to.equal("openai_key");
    expect(err.path).to.match(/^\$\.response\.chunks\[\*\]\..*args, joined$/);
    // the answer holds it: the fix is a redactor, not a prompt without it
    expect(err.message)
      .to.include("Fix it: the answer holds it (the model, or a tool's result, wrote it): add a redactor")
      .and.not.include("out of the prompt");
    expect(fake.count()).to.equal(1);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.deep.equal([]);
  });

  it("the run's summary counts the requests refused for a secret, before the call and after it (trial 44 L2)", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const usage = new Usage().start();
    try {
      const before = await openai(fake, vcr.cache)
        .invoke("use sk-ant-api03-abcdefghijklmnopqrstuvwxyz please")
        .catch((e) => e);
      fake.enqueue({ content: "your key: sk-proj-abcdefghijklmnopqrstuvwxyz012345" });
      const after = await openai(fake, vcr.cache)
        .invoke("make me a key")
        .catch((e) => e);
      expect([before, after].map((e) => e instanceof VcrSecretError)).to.deep.equal([true, true]);
      await openai(fake, vcr.cache).invoke("a plain question");
    } finally {
      usage.stop();
    }
    expect(fake.count(), "the refused-after call and the plain one").to.equal(2);
    expect(usage.totals).to.include({ refused: 2, recorded: 1, missed: 0 });
    expect(usageSummaryLine(usage)).to.include("1 recorded (2 refused: the fixture would have held a secret, nothing written), 0 bypassed");
    expect(fixtureFiles(dir)).to.have.length(1);
  });

  it("a redactor's value that a stream spells out over its chunks is refused (it would be written in pieces); a stream without it is recorded", async () => {
    const id = "cust-Zq84mLpX27vRt";
    const mask = (f: Fixture) => JSON.parse(JSON.stringify(f).split(id).join("[CUSTOMER]")) as Fixture;
    const vcr = new Vcr({ dir, mode: "record_or_replay", redactors: [mask] });
    const model = openai(fake, vcr.cache).bindTools([
      { type: "function", function: { name: "lookup", description: "Look up", parameters: { type: "object", properties: { id: { type: "string" } } } } },
    ]);
    const drain = async (q: string) => {
      for await (const _ of await model.stream(q)) void _;
    };
    fake.enqueue({ toolCalls: [{ name: "lookup", args: { id } }] });
    const usage = new Usage().start();
    const err = await drain(`Find ${id}`)
      .catch((e) => e)
      .finally(() => usage.stop());
    expect(err).to.be.instanceOf(VcrSecretError);
    expect(usage.totals).to.include({ refused: 1, recorded: 0 }); // the summary counts it refused (review L5)
    expect(err.path).to.match(/^\$\.response\.chunks\[\*\]\..*(args|arguments), joined$/);
    expect(err.message).to.include("a redactor (options.redactors) masks a value that").and.not.include(id);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.deep.equal([]);
    fake.enqueue({ toolCalls: [{ name: "lookup", args: { id: "someone else" } }] });
    await drain(`Find ${id}, then someone else`);
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(allBytes(dir)).not.to.include(id);
    // a redactor of ids, which every chunk repeats whole: their join is no value spelled out, and a stream records
    const ids = (f: Fixture) => JSON.parse(JSON.stringify(f).replace(/chatcmpl-[\w-]+/g, "chatcmpl-REDACTED")) as Fixture;
    const withIds = new Vcr({ dir, mode: "record_or_replay", redactors: [ids] });
    for await (const _ of await openai(fake, withIds.cache).stream("Stream a greeting")) void _;
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(allBytes(dir)).to.include("chatcmpl-REDACTED");
  });

  it("a stream redactor that masks the chunks' text joined but leaves message.content in pieces is refused; one that masks both records, and its fixture replays (trial 57 H1)", async () => {
    const name = "Jane Q. Doe"; // the fake answers a word a chunk: no chunk holds it whole
    const mask = (t: string) => t.split(name).join("<name>");
    type Chunk = { text: string; message: { content: unknown } };
    const deep = (f: Fixture) => JSON.parse(mask(JSON.stringify(f))) as Fixture;
    /**
     * Joins the chunks' text, masks it, puts it whole in the first chunk: in `text` only, or in `message.content` too;
     * every other string masked too (`deep`), or left as it is (a redactor written for streams alone: review 68 H1).
     */
    const streamAware = (both: boolean, everywhere = true) =>
      function maskStream(f: Fixture): Fixture {
        const out = everywhere ? deep(f) : (structuredClone(f) as Fixture);
        if (out.kind !== "chat_stream" || !out.response) return out;
        const chunks = (out.response as { chunks: Chunk[] }).chunks;
        const whole = mask(chunks.map((c) => c.text).join(""));
        chunks.forEach((c, i) => {
          c.text = i === 0 ? whole : "";
          if (both) c.message.content = i === 0 ? whole : "";
        });
        return out;
      };
    const drain = async (vcr: Vcr) => {
      let text = "";
      for await (const c of await openai(fake, vcr.cache).stream(`Greet ${name} by name`)) text += c.text;
      return text;
    };
    for (const everywhere of [true, false]) {
      const half = new Vcr({ dir, mode: "record_or_replay", redactors: [streamAware(false, everywhere)] });
      const err = await drain(half).catch((e) => e);
      expect(err, `masking every string too: ${everywhere}`).to.be.instanceOf(VcrSecretError);
      expect(err.path).to.equal("$.response.chunks[*].message.content, joined");
      expect(err.message).to.include("a chat stream's chunk holds its text twice, as text and as message.content").and.not.include(name);
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.deep.equal([]);
    }
    const full = new Vcr({ dir, mode: "record_or_replay", redactors: [streamAware(true)] });
    expect(await drain(full)).to.equal(`echo: Greet ${name} by name`);
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(allBytes(dir)).not.to.include("Doe");
    const requests = fake.count();
    expect(await drain(new Vcr({ dir, mode: "replay_only", redactors: [streamAware(true)] }))).to.equal("echo: Greet <name> by name");
    expect(fake.count()).to.equal(requests);
  });

  it("the value of a credential environment variable is refused before the call, naming the variable; the fixture path is shown from the working directory", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    process.env.VCR_TEST_SERVICE_TOKEN = "svc-0123456789-token";
    try {
      const err = await openai(fake, vcr.cache)
        .invoke("call it with svc-0123456789-token")
        .catch((e) => e);
      expect(err).to.be.instanceOf(VcrSecretError);
      expect(err.pattern).to.equal("environment_secret");
      expect(err.message).to.include("the value of the environment variable VCR_TEST_SERVICE_TOKEN");
      expect(err.message).not.to.include("svc-0123456789-token");
      expect(fake.count()).to.equal(0);
      const inCwd = new Vcr({ dir: "cassettes-vcr-test-tmp", mode: "record_or_replay" });
      const rel = await openai(fake, inCwd.cache)
        .invoke("again svc-0123456789-token")
        .catch((e) => e);
      expect(rel.message).to.match(/^langchain-vcr: refused to write cassettes-vcr-test-tmp\/[0-9a-f]{64}\.json:/);
      expect(fs.existsSync("cassettes-vcr-test-tmp"), "nothing was written").to.equal(false);
    } finally {
      delete process.env.VCR_TEST_SERVICE_TOKEN;
    }
  });

  it("a miss shows the request as the redactors leave it: a value they keep off disk reaches neither the message nor err.request", async () => {
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";
    const mask = (f: Fixture) => JSON.parse(JSON.stringify(f).split(token).join("[TOKEN]")) as Fixture;
    await openai(fake, new Vcr({ dir, mode: "record_or_replay", redactors: [mask] }).cache).invoke(`Check repo access with ${token}.`);
    expect(allBytes(dir)).not.to.include(token);
    const err = await openai(fake, new Vcr({ dir, mode: "replay_only", redactors: [mask] }).cache)
      .invoke(`Check repo access with ${token}, please.`)
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(err.message).not.to.include(token);
    expect(JSON.stringify(err.request)).not.to.include(token);
    expect(err.message).to.include("[TOKEN], please.");
    expect(
      err.nearest.differences.map((d: { path: string }) => d.path),
      "redacted vs redacted: one difference",
    ).to.have.length(1);
    const throwing = () => {
      throw new Error("needs a response");
    };
    const hidden = await openai(fake, new Vcr({ dir, mode: "replay_only", redactors: [throwing] }).cache)
      .invoke(`Another ${token}`)
      .catch((e) => e);
    expect(hidden).to.be.instanceOf(VcrMissError);
    expect(hidden.message).not.to.include(token);
    expect(hidden.message).to.include("not shown: a redactor");
  });

  it("a replay_only miss masks what the secret scan knows in the request it prints (a CI log): patterns and credential variables' values", async () => {
    process.env.VCR_TEST_DEPLOY_TOKEN = "deploy-0123456789-abc";
    try {
      const slack = "xoxb-2748-1234567890-AbCdEfGhIjKlMnOp";
      const err = await openai(fake, new Vcr({ dir, mode: "replay_only" }).cache)
        .invoke(`Post with ${slack} and deploy-0123456789-abc`)
        .catch((e) => e);
      expect(err).to.be.instanceOf(VcrMissError);
      for (const shown of [err.message, JSON.stringify(err.request)]) {
        expect(shown).not.to.include(slack).and.not.include("deploy-0123456789-abc");
        expect(shown).to.include("[secret: slack_token]").and.include("[secret: $VCR_TEST_DEPLOY_TOKEN]");
      }
      expect(fake.count()).to.equal(0);
    } finally {
      delete process.env.VCR_TEST_DEPLOY_TOKEN;
    }
  });

  it("a replay_only miss masks the client's own credentials in the request it prints: its key (from a vault, in no variable) and a gateway header's token", async () => {
    const key = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    const bearer = "gw-bearer-5a6978879";
    const model = openai(fake, new Vcr({ dir, mode: "replay_only" }).cache, {
      apiKey: key,
      configuration: { defaultHeaders: { Authorization: `Bearer ${bearer}` } },
    });
    const err = await model.invoke(`Config dump: api-key=${key} auth=${bearer}`).catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    for (const shown of [err.message, JSON.stringify(err.request)]) {
      expect(shown).not.to.include(key).and.not.include(bearer);
      expect(shown.split("[secret: the client's key]").length - 1, shown).to.be.at.least(2);
    }
    expect(fake.count()).to.equal(0);
  });

  it("the secret scan reads mixed arrays whose first element is a number", () => {
    expect(findSecret({ r: [1, "sk-proj-abcdefghijklmnopqrstuvwxyz012345"] }, [], new Set())).to.deep.equal({ path: "$.r[1]", pattern: "openai_key" });
    expect(findSecret({ v: [0.1, 0.2, 0.3] }, [], new Set())).to.equal(undefined);
  });
});
