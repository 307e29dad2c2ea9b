import { expect } from "chai";
import { formatChange, formatEdit, hintFor } from "../../src/diagnose/diff";

describe("a difference as a miss shows it (formatChange)", () => {
  const prompt = (args: string) => `You are a tool emulator. Reply as the tool would. Tool: issue_refund. Description: refund an order. Arguments: ${args}`;

  it("two long texts that differ past the first 120 characters: both sides from a little before the change, which is on the line", () => {
    const line = formatChange(prompt(`{"orderId":"9","amount":12}`), prompt(`{"amount":12,"orderId":"9"}`));
    expect(line).to.equal(
      `"… an order. Arguments: {\\"orderId\\":\\"9\\",\\"amount\\":12}" → "… an order. Arguments: {\\"amount\\":12,\\"orderId\\":\\"9\\"}"`,
    );
  });

  it("a long text changed near its start shows from the start, cut at 120 characters", () => {
    const a = "Today is 2026-11-28. " + "x".repeat(200);
    const [left, right] = formatChange(a, a.replace("28", "29")).split(" → ");
    expect(left)
      .to.have.length(120)
      .and.match(/^"Today is 2026-11-28\. x+…"$/); // a cut text keeps its closing quote
    expect(right).to.match(/^"Today is 2026-11-29\./);
  });

  it("short values and non-texts as before: whole, (absent) for a missing one", () => {
    expect(formatChange("France", "Spain")).to.equal(`"France" → "Spain"`);
    expect(formatChange(undefined, 0.7)).to.equal(`(absent) → 0.7`);
    expect(formatChange({ a: 1 }, "x".repeat(300))).to.match(/^\{"a":1\} → "x+…"$/);
    expect(formatChange({ a: "x".repeat(300) }, 1)).to.match(/^\{"a":"x+… → 1$/); // not a text: no quote to close
    // nor is a non-text cut between an emoji's halves
    for (const at of [117, 118, 119]) {
      const [left] = formatChange({ a: "x".repeat(at - 6) + "😀".repeat(40) }, 1).split(" → ");
      expect(left.endsWith("…") && !/[\ud800-\udbff]…$/.test(left), JSON.stringify(left.slice(-4))).to.equal(true);
    }
  });

  it("a text cut inside an escape drops the escape's backslash, so the closing quote stays a quote", () => {
    for (const at of [117, 118, 119]) {
      const text = "y".repeat(at - 1) + '"' + "z".repeat(200); // JSON: the quote at `at`, as \"
      const [shown] = formatChange(text, "short").split(" → ");
      expect(shown.endsWith('…"'), shown).to.equal(true);
      expect(JSON.parse(shown.replace(/…"$/, '"')), shown).to.be.a("string"); // still a well-formed JSON string
    }
  });

  it("a text cut inside a \\u escape or between the halves of an emoji ends before it, still well-formed", () => {
    for (const at of [116, 117, 118, 119, 120]) {
      for (const inner of ["\u001b", "😀"]) {
        const text = "y".repeat(at - 1) + inner + "z".repeat(200);
        const [shown] = formatChange(text, "short").split(" → ");
        expect(shown.endsWith('…"'), shown).to.equal(true);
        const parsed = JSON.parse(shown.replace(/…"$/, '"')) as string;
        expect(text.startsWith(parsed), JSON.stringify(shown.slice(-12))).to.equal(true); // no half escape, no lone surrogate
      }
    }
  });
});

describe("hintFor: a value a run makes anew, and whether a normalizer reaches where it changed", () => {
  const d = (path: string, recorded: string, requested: string) => [{ path, recorded, requested }];
  const uuids = ["id 0b7f1c2e-1111-4a2b-9c3d-000000000001", "id 6f1d2e3c-2222-4b3c-8d4e-000000000002"];
  it("in a message's text, a prompt, an embedded text: the normalizer to add", () => {
    for (const path of ["messages[0].content", "messages[2].content[1].text", "prompt", "text"])
      expect(hintFor(d(path, uuids[0], uuids[1])), path).to.equal("a UUID changed between runs: add normalizers.uuid to options.normalizers");
    expect(hintFor(d("messages[1].content", "at 2026-12-01T10:00", "at 2026-12-02T11:30"))).to.include("normalizers.isoDateTime");
  });
  it("in a tool call's arguments (normalizers never touch them): keep it out of the arguments, or toolMode execute; no normalizer named", () => {
    const hint = hintFor(d("args.requestId", uuids[0], uuids[1]))!;
    expect(hint).to.include("a UUID changed between runs at args.requestId, which normalizers do not rewrite");
    expect(hint).to.include("keep it out of the arguments").and.include('withVcr({ toolMode: "execute" }, …)');
    expect(hint).not.to.include("add normalizers.");
  });
  it("in a tool's schema (a zod default a run makes anew) or another parameter: make it the same every run; no normalizer named", () => {
    const hint = hintFor(d("tools[0].parameters.properties.requestId.default", uuids[0], uuids[1]))!;
    expect(hint).to.include("at tools[0].parameters.properties.requestId.default, which normalizers do not rewrite").and.include("zod .default(");
    expect(hint).not.to.include("add normalizers.");
  });
});

describe("hintFor: OpenAI's two APIs", () => {
  const d = (path: string, recorded: unknown, requested: unknown) => ({ path, recorded, requested });

  it("the other API's fixture of the same request: only when openai_api is the one difference (trial 40: it was shown beside an edited prompt)", () => {
    expect(hintFor([d("openai_api", undefined, "responses")])).to.include("ChatOpenAI sends this call to OpenAI's Responses API");
    expect(hintFor([d("messages[0].content", "Explicit: hi", "No tools: hi"), d("openai_api", undefined, "responses")])).to.equal(undefined);
  });

  it("a fixture keyed without the Azure deployment, the one difference: recorded by an older langchain-vcr, record it again (recheck 57)", () => {
    expect(hintFor([d("deployment", undefined, "gpt4o-canary")]))
      .to.include("keyed without an Azure deployment")
      .and.include("docs/upgrading.md");
    expect(hintFor([d("deployment", "gpt4o-prod", "gpt4o-canary")])).to.equal(undefined); // another deployment: no hint
    expect(hintFor([d("deployment", undefined, "x"), d("temperature", 0, 1)])).to.equal(undefined);
  });

  it("tool definitions that gained only strict or type: the Responses API's form after an upgrade (trial 40: no word on why)", () => {
    const gained = [d("tools[0].strict", undefined, null), d("tools[0].type", undefined, "function")];
    expect(hintFor(gained))
      .to.include("what @langchain/openai adds to the tools it sends OpenAI's Responses API: a string model")
      .and.include("docs/upgrading.md");
    expect(hintFor([d("tools[1].strict", undefined, null)])).to.include("Responses API");
    expect(hintFor([...gained, d("temperature", 0, undefined)])).to.equal(undefined);
    expect(hintFor([d("tools[0].strict", true, null)])).to.equal(undefined); // changed, not gained
    expect(hintFor([d("tools[0].strict", undefined, true)])).to.equal(undefined); // a user's own strict: true (review)
  });

  it("tool definitions that lost only strict or type: the fixture is the Responses API's, the packages older (trial 54 L1: a downgrade had no hint)", () => {
    const lost = [d("tools[0].strict", null, undefined), d("tools[0].type", "function", undefined), d("tools[1].strict", null, undefined)];
    expect(hintFor(lost)).to.include("the tool definitions lack only what @langchain/openai adds").and.include("(npm ci)").and.include("docs/upgrading.md");
    expect(hintFor([...lost, d("temperature", 0, undefined)])).to.equal(undefined);
    expect(hintFor([d("tools[0].strict", true, undefined)])).to.equal(undefined); // a user's own strict: true, dropped
  });

  it("a structured-output agent's switch: tool_choice 'required' dropped and its output tool's strict false → null beside the gained fields, either way (review 62 M1)", () => {
    const up = [
      d("tool_choice", "required", undefined),
      d("tools[0].strict", undefined, null),
      d("tools[0].type", undefined, "function"),
      d("tools[1].strict", false, null),
      d("tools[1].type", undefined, "function"),
    ];
    expect(hintFor(up)).to.include(
      "the tool definitions gained only what @langchain/openai adds to the tools it sends OpenAI's Responses API (and a structured-output agent's tool_choice went)",
    );
    const down = up.map((x) => d(x.path, x.requested, x.recorded));
    expect(hintFor(down)).to.include("the tool definitions lack only what @langchain/openai adds");
    expect(hintFor([d("tool_choice", "required", undefined)])).to.equal(undefined); // alone: a setting changed, not the switch
    expect(hintFor([d("tool_choice", "auto", undefined), ...up.slice(1)])).to.equal(undefined);
  });
});

describe("formatEdit: a changed text as the edit alone, for the summary's roll-up", () => {
  it("the edit with a few characters before it, in whole words, never half an emoji; none for a long edit or a non-text", () => {
    const prefix = "Summarise the customer's message in one sentence: ";
    expect(formatEdit(prefix + "My order 42 arrived.", prefix.replace(":", ";") + "My order 42 arrived.")).to.equal(
      '"… in one sentence:…" → "… in one sentence;…"',
    );
    expect(formatEdit(prefix + "Where is it?", prefix.replace(":", ";") + "Where is it?")).to.equal('"… in one sentence:…" → "… in one sentence;…"'); // the same for another text around it
    expect(formatEdit("Answer in English please", "Answer in French please")).to.equal('"Answer in English…" → "Answer in French…"'); // not "Englis" → "Frenc"
    expect(formatEdit("smile 😀 now", "smile 🈀 now")).to.equal('"smile 😀…" → "smile 🈀…"'); // the pair shares its first half
    expect(formatEdit("x".repeat(20) + "😀abc", "x".repeat(20) + "😀abd")).to.equal('"xxxxxxxxxxxxxxxxxxxx😀abc" → "xxxxxxxxxxxxxxxxxxxx😀abd"'); // the lead does not start on half of it, nor half a word
    expect(formatEdit("y".repeat(40) + "😀abc", "y".repeat(40) + "😀abd")).to.equal('"…😀abc" → "…😀abd"'); // a word too long to go back to
    // the lead starts at a word's start (recheck 57: "…udget review is postponed…")
    const r = "Summarise in one sentence: The quarterly meeting moved to Tuesday; budget review is postponed to next month.";
    expect(formatEdit(r, r.replace("postponed", "postpone"))).to.equal('"…budget review is postponed…" → "…budget review is postpone…"');
    // one long word from the lead into the edit (a punctuation mark after it): its last characters stay the lead (review 57 L6)
    expect(formatEdit("z".repeat(40) + ": go", "z".repeat(40) + "; go")).to.equal(`"…${"z".repeat(16)}:…" → "…${"z".repeat(16)};…"`);
    expect(formatEdit("a", "b".repeat(50))).to.equal(undefined);
    expect(formatEdit(0, 1)).to.equal(undefined);
  });
});
