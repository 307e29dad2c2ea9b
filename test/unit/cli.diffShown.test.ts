/**
 * diff names the role of the message a request difference is in: `messages[0].content` is the
 * system prompt in one request and the user's question in another (user trial 37: a reviewer could
 * not tell which prompt a change was in). The JSON report keeps the paths as `VcrMissError.nearest`
 * gives them.
 */
import { expect } from "chai";
import { computeDiff } from "../../src/cli/diffCompute";
import { renderJson, renderMarkdown, renderText } from "../../src/cli/diffRender";
import type { Fixture } from "../../src/store/fixture";
import type { FixtureFile } from "../../src/store/reader";
import { chatFixture } from "../helpers/chatFixture";

function asked(messages: { role: string; content: string }[], answer: string): Fixture {
  return chatFixture({ messages, model: "gpt-4o-mini", temperature: 0 }, answer, "2026-12-06T00:00:00.000Z");
}

function side(fixtures: Fixture[]) {
  const files = new Map<string, FixtureFile>(fixtures.map((f) => [`${f.hash}.json`, { file: `${f.hash}.json`, text: "", bytes: 0, fixture: f }]));
  return { files, label: (name: string) => `cassettes/${name}` };
}

const QUESTION = "What is the capital of France?";

describe("diff: the role of the message a difference is in", () => {
  it("a system prompt and a question edited: each path names its message's role, in text and markdown, and JSON keeps the bare path", () => {
    const before = asked(
      [
        { role: "system", content: "You are a helpful tutor." },
        { role: "user", content: QUESTION },
      ],
      "Paris.",
    );
    const after = asked(
      [
        { role: "system", content: "You are a pirate tutor." },
        { role: "user", content: QUESTION + " Be brief." },
      ],
      "Paris.",
    );
    const report = computeDiff(side([before]), side([after]), []);
    expect(report.changed.map((c) => c.request.map((d) => [d.path, d.role]))).to.deep.equal([
      [
        ["messages[0].content", "system"],
        ["messages[1].content", "user"],
      ],
    ]);
    const text = renderText(report, { dir: "cassettes", base: "HEAD" });
    expect(text).to.contain("  request messages[0].content (system): You are a [-helpful-] {+pirate+} tutor.\n");
    expect(text).to.contain("  request messages[1].content (user): What is the capital of France? {+Be brief.+}\n");
    const markdown = renderMarkdown(report, { dir: "cassettes", base: "HEAD" });
    expect(markdown).to.contain("`messages[0].content (system), messages[1].content (user)`");
    expect(markdown).to.contain("- request `messages[0].content` (system): You are a ~~helpful~~ **pirate** tutor.\n");
    expect(JSON.parse(renderJson(report)).changed[0].request.map((d: object) => Object.keys(d))).to.deep.equal([
      ["path", "recorded", "requested"],
      ["path", "recorded", "requested"],
    ]);
  });

  it("a conversation whose earlier answer and latest question were edited: the assistant's turn and the user's are told apart", () => {
    const turns = (answer: string, question: string) => [
      { role: "user", content: QUESTION },
      { role: "assistant", content: answer },
      { role: "user", content: question },
    ];
    const before = asked(turns("Paris is the capital.", "And of Spain?"), "Madrid.");
    const after = asked(turns("Paris is the capital city.", "And of Spain, please?"), "Madrid.");
    const report = computeDiff(side([before]), side([after]), []);
    expect(report.changed.flatMap((c) => c.request).map((d) => [d.path, d.role])).to.deep.equal([
      ["messages[1].content", "assistant"],
      ["messages[2].content", "user"],
    ]);
    expect(renderText(report, { dir: "cassettes", base: "HEAD" })).to.contain("  request messages[1].content (assistant): Paris is the ");
  });

  it("a difference outside the messages (the model, a parameter) names no role", () => {
    const before = asked([{ role: "user", content: QUESTION }], "Paris.");
    const after = chatFixture({ messages: [{ role: "user", content: QUESTION }], model: "gpt-4o", temperature: 0 }, "Paris.", before.recordedAt);
    const report = computeDiff(side([before]), side([after]), []);
    expect(report.changed.flatMap((c) => c.request).map((d) => [d.path, d.role])).to.deep.equal([["model", undefined]]);
    expect(renderText(report, { dir: "cassettes", base: "HEAD" })).to.contain("  request model: [-gpt-4o-mini-] {+gpt-4o+}\n");
  });
});

const REFUND = "Order 42 arrived broken: refund my $25.";
const OLD_PROMPT = "You are a support agent.";
const NEW_PROMPT = "You are a friendly support agent. Always refund politely.";
const withPrompt = (system: string, question: string, answer: string) =>
  asked(
    [
      { role: "system", content: system },
      { role: "user", content: question },
    ],
    answer,
  );

describe("diff before prune: an added fixture whose system prompt was rewritten, beside the old one", () => {
  it("is an edit of the old one, which is still there (the same question asked) and the last run did not use, with the rewritten prompt shown (trial 39: it was a bare 'added')", () => {
    const old = withPrompt(OLD_PROMPT, REFUND, "Refunded.");
    const report = computeDiff(
      side([]),
      side([withPrompt(NEW_PROMPT, REFUND, "Refunded.")]),
      [],
      () => side([old]),
      () => false,
    );
    expect(report.added.map((a) => a.editOf?.file)).to.deep.equal([`cassettes/${old.hash}.json`]);
    expect(report.added[0].editOf!.request.map((d) => [d.path, d.role])).to.deep.equal([["messages[0].content", "system"]]);
    const text = renderText(report, { dir: "cassettes", base: "HEAD" });
    expect(text).to.contain(`  an edit of cassettes/${old.hash}.json, which is still here, unchanged`);
    expect(text).to.contain("  request messages[0].content (system): You are a {+friendly+} support agent. {+Always refund politely.+}\n");
  });

  it("another question beside it, with that prompt, is plain added: a rewrite pairs only where the same question is asked", () => {
    const old = withPrompt(OLD_PROMPT, REFUND, "Refunded.");
    const report = computeDiff(
      side([]),
      side([withPrompt(NEW_PROMPT, "Where is my parcel?", "On its way.")]),
      [],
      () => side([old]),
      () => false,
    );
    expect(report.added.map((a) => a.editOf)).to.deep.equal([undefined]);
  });

  it("is plain added when the last run used the old one (a new persona of a describe.each beside one still in use), or when no ledger says (review)", () => {
    const old = withPrompt(OLD_PROMPT, REFUND, "Refunded.");
    const added = side([withPrompt(NEW_PROMPT, REFUND, "Refunded.")]);
    expect(
      computeDiff(
        side([]),
        added,
        [],
        () => side([old]),
        (name) => name === `${old.hash}.json`,
      ).added.map((a) => a.editOf),
    ).to.deep.equal([undefined]);
    expect(computeDiff(side([]), added, [], () => side([old])).added.map((a) => a.editOf)).to.deep.equal([undefined]);
    // an edit (one word) still pairs without a ledger, as before; not with a fixture the last run used
    const edited = side([withPrompt(OLD_PROMPT, REFUND.replace("$25", "$30"), "Refunded.")]);
    expect(computeDiff(side([]), edited, [], () => side([old])).added.map((a) => a.editOf?.file)).to.deep.equal([`cassettes/${old.hash}.json`]);
    expect(
      computeDiff(
        side([]),
        edited,
        [],
        () => side([old]),
        () => true,
      ).added.map((a) => a.editOf),
    ).to.deep.equal([undefined]);
  });
});

describe("diff: a message whose role changed", () => {
  it("is named by both roles (a system prompt put before the question: the question's place now holds the prompt)", () => {
    const before = asked([{ role: "user", content: REFUND }], "Refunded.");
    const after = withPrompt(OLD_PROMPT, REFUND, "Refunded.");
    const diffs = computeDiff(side([before]), side([after]), []).changed.flatMap((c) => c.request);
    expect(diffs.map((d) => [d.path, d.role])).to.deep.include(["messages[0].content", "user → system"]);
  });
});

describe("diff: changes that did the same to their requests", () => {
  it("come together, each group where its first file would be, and each after the first says so instead of the same lines (trial 39: one prompt rewrite across 8 fixtures)", () => {
    const fixtures = (system: string) => ["Paris?", "Oslo?", "Rome?"].map((q) => withPrompt(system, `Weather in ${q}`, "Sunny."));
    const before = [...fixtures(OLD_PROMPT), asked([{ role: "user", content: QUESTION }], "Paris.")];
    const after = [...fixtures(NEW_PROMPT), asked([{ role: "user", content: QUESTION + " Be brief." }], "Paris.")];
    const report = computeDiff(side(before), side(after), []);
    const groups = report.changed.map((c) => (c.title.includes("Weather") ? "rewrite" : "edit"));
    // the rewrite's three together: the edit before or after them, never between
    expect(groups.join(",")).to.be.oneOf(["rewrite,rewrite,rewrite,edit", "edit,rewrite,rewrite,rewrite"]);
    const inGroup = report.changed.filter((c) => c.title.includes("Weather")).map((c) => c.after);
    expect(inGroup).to.deep.equal([...inGroup].sort());
    const text = renderText(report, { dir: "cassettes", base: "HEAD" });
    expect(text.split("request messages[0].content (system): You are a {+friendly+} support agent.")).to.have.length(2);
    expect(text.split("  request: the same change as the fixture above\n")).to.have.length(3);
    expect(text.split("request messages[0].content (user): What is the capital of France? {+Be brief.+}")).to.have.length(2);
  });
});

describe("diff before prune: an added fixture keyed with openai_api or provider beside the one it was led from", () => {
  const request = { messages: [{ role: "user", content: QUESTION }], model: "gpt-4o-mini" };
  const old = chatFixture(request, "Paris.", "2026-12-06T00:00:00.000Z");
  /** `inUse`: the last complete runs' word on the old fixture (undefined: no ledger says). */
  const noteFor = (added: Fixture, inUse?: (name: string) => boolean) =>
    renderText(
      computeDiff(side([]), side([added]), [], () => side([old]), inUse),
      { dir: "cassettes", base: "HEAD" },
    );
  const REMOVES = "once no test uses it, langchain-vcr prune removes it";

  for (const [member, value, whose] of [
    ["openai_api", "responses", "API's"],
    ["provider", "ollama", "provider's"],
  ] as const)
    it(`${member}: with no ledger, the old fixture stays, since a call of the new request finds its key through it, and prune keeps both (trial 54: the note said prune would remove it); a ledger that says it went unused: prune removes it (review 62 M3)`, () => {
      const added = chatFixture({ ...request, [member]: value }, "Paris.", "2026-12-07T00:00:00.000Z");
      const text = noteFor(added);
      expect(text).to.contain(
        `  an edit of cassettes/${old.hash}.json, which is still here, unchanged: it holds the other ${whose} answer, and a call of this request finds its key through it, so prune keeps both while a test makes that call\n`,
      );
      expect(text).to.not.contain(REMOVES);
      expect(noteFor(added, () => false))
        .to.contain(REMOVES)
        .and.not.contain("prune keeps both");
    });

  it("another change beside it, or OpenRouter's provider routing object (a parameter, not a provider's form): an edit as before, prune removes the old one once no test uses it (review 62 M2)", () => {
    expect(noteFor(chatFixture({ ...request, openai_api: "responses", temperature: 0 }, "Paris.", "2026-12-07T00:00:00.000Z"))).to.contain(REMOVES);
    const routed = noteFor(chatFixture({ ...request, provider: { order: ["anthropic"] } }, "Paris.", "2026-12-07T00:00:00.000Z"));
    expect(routed).to.contain(REMOVES).and.not.contain("prune keeps both");
  });
});

describe("diff after an upgrade that moves a string-model agent to the Responses API (trial 54)", () => {
  const LOOKUP = {
    description: "Look up the weather of a city.",
    name: "lookup_weather",
    parameters: { properties: { city: { type: "string" } }, required: ["city"], type: "object" },
  };
  const REPORT = {
    description: "Tool for extracting structured output from the model's response.",
    name: "weather_report",
    parameters: { properties: { city: { type: "string" } }, type: "object" },
  };
  const ask = (extra: Record<string, unknown>, tools: object[], at: string) =>
    chatFixture({ messages: [{ role: "user", content: "Weather report for Oslo, please." }], model: "gpt-4o-mini", ...extra, tools }, "Sunny.", at);
  const responses = (t: object) => ({ ...t, strict: null, type: "function" });

  it("a structured-output agent's fixture re-keyed (tool_choice dropped, one tool's strict false → null, each tool's strict and type gained) is one changed fixture, not added and removed (review 62 M1)", () => {
    const before = ask({ tool_choice: "required" }, [LOOKUP, { ...REPORT, strict: false }], "2026-12-06T00:00:00.000Z");
    const after = ask({}, [responses(LOOKUP), responses(REPORT)], "2026-12-07T00:00:00.000Z");
    const report = computeDiff(side([before]), side([after]), []);
    expect([report.changed.length, report.added.length, report.removed.length]).to.deep.equal([1, 0, 0]);
    expect(report.changed[0].request.map((d) => d.path)).to.deep.equal(["tool_choice", "tools[0].strict", "tools[0].type", "tools[1].strict", "tools[1].type"]);
    // another question beside it is not paired with it, however few its changes
    const other = chatFixture(
      { messages: [{ role: "user", content: "Weather report for Bergen, please." }], model: "gpt-4o-mini", tools: [responses(LOOKUP)] },
      "Rain.",
      "2026-12-07T00:00:00.000Z",
    );
    const apart = computeDiff(side([before]), side([other]), []);
    expect([apart.changed.length, apart.added.length, apart.removed.length]).to.deep.equal([0, 1, 1]);
  });

  it("before prune, beside the old fixture still there: an edit of it when the last complete run did not use it, else 'asks what it asked' (recheck 62: plain added)", () => {
    const before = ask({ tool_choice: "required" }, [LOOKUP, { ...REPORT, strict: false }], "2026-12-06T00:00:00.000Z");
    const after = ask({}, [responses(LOOKUP), responses(REPORT)], "2026-12-07T00:00:00.000Z");
    const judged = computeDiff(
      side([]),
      side([after]),
      [],
      () => side([before]),
      () => false,
    );
    expect(judged.added.map((a) => a.editOf?.file)).to.deep.equal([`cassettes/${before.hash}.json`]);
    const unjudged = computeDiff(side([]), side([after]), [], () => side([before]));
    expect(unjudged.added.map((a) => [a.editOf, a.sameQuestionAs])).to.deep.equal([[undefined, `cassettes/${before.hash}.json`]]);
    expect(
      computeDiff(
        side([]),
        side([after]),
        [],
        () => side([before]),
        () => true,
      ).added.map((a) => [a.editOf, a.sameQuestionAs]),
    ).to.deep.equal([[undefined, undefined]]); // used by the last complete run: a test's still
  });
});

describe("diff: an agent's later turn whose tool result changed with the first turn's arguments (trial 52 F6)", () => {
  const refund = (reason: boolean) => ({
    name: "issue_refund",
    parameters: {
      properties: { amount: { type: "number" }, ...(reason ? { reason: { type: "string" } } : {}) },
      required: reason ? ["amount", "reason"] : ["amount"],
      type: "object",
    },
  });
  const system = (reason: boolean) => ({
    role: "system",
    content: `You are a refund assistant. Refund broken orders using the tool${reason ? ", and give a reason" : ""}.`,
  });
  const question = { role: "user", content: "Order 42 arrived broken: refund my $25." };
  const secondTurn = (reason: boolean, at: string, ask = question, tool = "issue_refund") =>
    chatFixture(
      {
        messages: [
          system(reason),
          ask,
          { role: "assistant", content: "", tool_calls: [{ id: "call_1", name: tool, args: { amount: 42, ...(reason ? { reason: "arrived broken" } : {}) } }] },
          { role: "tool", name: tool, tool_call_id: "call_1", content: `Refunded $42 for order 42${reason ? " (arrived broken)" : ""}.` },
        ],
        model: "gpt-4o-mini",
        tools: [refund(reason)],
      },
      "Done.",
      at,
    );

  it("is one changed fixture (the same question, the same tools called, their results changed): before, added and removed", () => {
    const before = secondTurn(false, "2026-12-06T00:00:00.000Z");
    const after = secondTurn(true, "2026-12-07T00:00:00.000Z");
    const report = computeDiff(side([before]), side([after]), []);
    expect([report.changed.length, report.added.length, report.removed.length]).to.deep.equal([1, 0, 0]);
    expect(report.changed[0].request.map((d) => d.path)).to.include.members([
      "messages[0].content",
      "messages[2].tool_calls[0].args.reason",
      "messages[3].content",
    ]);
  });

  it("requests with no user text, or with no tool answering after it, are no agent turn: each stays added and removed (review 63)", () => {
    const more = { temperature: 0.9, top_p: 0.5, seed: 3 }; // over the edit limit with the text: only a turn could pair them
    const only = (content: string, at: string, extra = {}) =>
      chatFixture({ messages: [{ role: "system", content }], model: "gpt-4o-mini", ...extra }, "Done.", at);
    const talk = (reply: string, at: string, extra = {}) =>
      chatFixture({ messages: [question, { role: "assistant", content: reply }], model: "gpt-4o-mini", ...extra }, "Done.", at);
    for (const [before, after] of [
      [
        only("Summarize this contract in three bullet points for a lawyer.", "2026-12-06T00:00:00.000Z"),
        only("Translate this poem into French, keeping its rhymes.", "2026-12-07T00:00:00.000Z", more),
      ],
      [
        talk("We can refund $25 today for order 42.", "2026-12-06T00:00:00.000Z"),
        talk("I am sorry, orders older than a year are final.", "2026-12-07T00:00:00.000Z", more),
      ],
    ]) {
      const report = computeDiff(side([before]), side([after]), []);
      expect([report.changed.length, report.added.length, report.removed.length]).to.deep.equal([0, 1, 1]);
    }
  });

  it("another question, or another tool called after it, stays added and removed", () => {
    const before = secondTurn(false, "2026-12-06T00:00:00.000Z");
    for (const after of [
      secondTurn(true, "2026-12-07T00:00:00.000Z", { role: "user", content: "Order 43 arrived broken: refund my $30." }),
      secondTurn(true, "2026-12-07T00:00:00.000Z", question, "issue_credit"),
    ]) {
      const report = computeDiff(side([before]), side([after]), []);
      expect([report.changed.length, report.added.length, report.removed.length]).to.deep.equal([0, 1, 1]);
    }
  });
});
