import { expect } from "chai";
import { nearestOf, nearness, type NearestCandidate } from "../../src/diagnose/nearest";
import { changeCount, diffValues, hintFor, isEdit, toolFailedOnReplay } from "../../src/diagnose/diff";

const tool = (extra: Record<string, unknown> = {}) => ({
  description: "Increment the counter.",
  name: "bump",
  parameters: { properties: { by: { type: "number" } }, required: ["by"], type: "object" },
  ...extra,
});
const chat = (content: string, tools?: unknown[]) => ({ messages: [{ content, role: "user" }], model: "gpt-4o-mini", ...(tools ? { tools } : {}) });
const candidate = (file: string, request: unknown): NearestCandidate => ({ kind: "chat", hash: file, file, request });

describe("the nearest recorded request to one that missed", () => {
  it("after an upgrade that adds fields to each tool definition, the same test's fixture, not another test's with another prompt and no tools", () => {
    const requested = chat("Please bump the counter by 3.", [tool({ strict: null, type: "function" })]);
    const sameTest = candidate("b.json", chat("Please bump the counter by 3.", [tool()]));
    const otherTest = candidate("a.json", chat("Say hello via responses"));
    const near = nearestOf("chat", requested, [otherTest, sameTest]);
    expect(near?.file).to.equal("b.json");
    expect(near?.differences.map((d) => d.path)).to.deep.equal(["tools[0].strict", "tools[0].type"]);
  });

  it("an upgrade that gives every tool definition the same two fields is two changes, an edit, however many tools (trial 54: 3 tools were 6 fields, not an edit)", () => {
    const tools = (extra: Record<string, unknown> = {}) => ["a", "b", "c"].map((name) => tool({ name, ...extra }));
    const upgraded = diffValues(chat("Plan my trip to Milan.", tools()), chat("Plan my trip to Milan.", tools({ strict: false, type: "function" })));
    expect(upgraded).to.have.length(6);
    expect(changeCount(upgraded)).to.equal(2);
    expect(isEdit(upgraded)).to.equal(true);
    // with tool_choice dropped too: 3 changes, still an edit; each tool's strict set otherwise: four, not an edit
    const strategy = diffValues({ ...chat("Plan", tools()), tool_choice: "required" }, chat("Plan", tools({ strict: false, type: "function" })));
    expect([changeCount(strategy), isEdit(strategy)]).to.deep.equal([3, true]);
    const mixed = diffValues(
      chat("Plan", tools()),
      chat("Plan", [
        tool({ name: "a", strict: false, type: "function" }),
        tool({ name: "b", strict: true, type: "function" }),
        tool({ name: "c", strict: null, type: "function" }),
      ]),
    );
    expect([changeCount(mixed), isEdit(mixed)]).to.deep.equal([4, false]);
  });

  it("after that upgrade, an agent with 5 tools: its own old fixture, not another test's re-recorded one with another prompt (review 62 L1: the 10 fields outweighed the replaced prompt)", () => {
    const tools = (extra: Record<string, unknown> = {}) => ["a", "b", "c", "d", "e"].map((name) => tool({ name, ...extra }));
    const upgraded = { strict: null, type: "function" };
    const near = nearestOf("chat", chat("Please bump the counter by 3.", tools(upgraded)), [
      candidate("a-other-test-new.json", chat("Reset every counter to zero.", tools(upgraded))),
      candidate("b-own-old.json", chat("Please bump the counter by 3.", tools())),
    ]);
    expect(near?.file).to.equal("b-own-old.json");
    expect(near?.differences).to.have.length(10);
  });

  // the same test's fixture, where this test changed a part of the request; another test's, with another prompt and the same part
  const sameOrOther = (requested: unknown, sameTest: unknown, otherTest: unknown) =>
    nearestOf("chat", requested, [candidate("a.json", otherTest), candidate("b.json", sameTest)])?.file;
  const RESET = { description: "Reset the counter.", name: "reset", parameters: { properties: { to: { type: "number" } }, required: ["to"], type: "object" } };

  it("a test that gained a tool: its own fixture (a tool on one side only), not another test's with the same two tools", () => {
    const prompt = "Please bump the counter by 3.";
    expect(sameOrOther(chat(prompt, [tool(), RESET]), chat(prompt, [tool()]), chat("Reset the counter to zero.", [tool(), RESET]))).to.equal("b.json");
  });

  it("a test that gained withStructuredOutput: its own fixture (a response_format on one side only), not another test's with the same schema", () => {
    const format = {
      json_schema: {
        name: "answer",
        schema: { additionalProperties: false, properties: { city: { type: "string" } }, required: ["city"], type: "object" },
        strict: true,
      },
      type: "json_schema",
    };
    const prompt = "Where is the Louvre?";
    expect(sameOrOther({ ...chat(prompt), response_format: format }, chat(prompt), { ...chat("Name a city in Peru."), response_format: format })).to.equal(
      "b.json",
    );
  });

  it("an agent's next turn (a tool call and its result appended): the same test's first turn, not another test's second turn", () => {
    const turn = (prompt: string, id: string, args: string, result: string) => ({
      messages: [
        { content: prompt, role: "user" },
        { content: "", role: "assistant", tool_calls: [{ function: { arguments: args, name: "bump" }, id, type: "function" }] },
        { content: result, role: "tool", tool_call_id: id },
      ],
      model: "gpt-4o-mini",
    });
    const prompt = "Please bump the counter by 3.";
    expect(sameOrOther(turn(prompt, "call_1", `{"by":3}`, "3"), chat(prompt), turn("Bump it twice, by 2.", "call_9", `{"by":2}`, "2"))).to.equal("b.json");
  });

  it('a test that changed a setting (tool_choice "auto" to "required"): its own fixture, not another test\'s with an edited prompt and a response_format', () => {
    const prompt = "What is the capital of France?";
    const requested = { ...chat(prompt, [tool()]), tool_choice: "required" };
    const own = { ...chat(prompt, [tool()]), tool_choice: "auto" };
    const other = { ...chat("What is the capital of Spain?", [tool()]), tool_choice: "required", response_format: { type: "json_object" } };
    expect(sameOrOther(requested, own, other)).to.equal("b.json");
    expect(nearness(diffValues(own, requested))).to.equal(1);
  });

  it("a text completion whose temperature changed: its own fixture, not another test's with another prompt", () => {
    const llm = (prompt: string, temperature: number) => ({ model: "gpt-3.5-turbo-instruct", prompt, temperature });
    expect(sameOrOther(llm("Say hi to the team.", 0.2), llm("Say hi to the team.", 0.7), llm("Translate this into French.", 0.2))).to.equal("b.json");
  });

  it("an edited prompt is nearer than a replaced one; a different model counts 5, a replaced text 10, a part on one side only at most 3", () => {
    // "France" → "Spain": 6 of the longer's 30 characters changed
    const edit = diffValues(chat("What is the capital of France?"), chat("What is the capital of Spain?"));
    const replaced = diffValues(chat("Say hello"), chat("What is the capital of Spain?"));
    expect([nearness(edit), nearness(replaced)]).to.deep.equal([1 + 6 / 30, 10]);
    expect(nearness(diffValues({ model: "a" }, { model: "b" }))).to.equal(5);
  });

  it("an image's bytes changed (its sha256), alone or beside an edit of its question, is an edit: one change, as a parameter's (trial 57 M3)", () => {
    const withImage = (q: string, sha: string) => ({
      messages: [
        {
          content: [
            { type: "text", text: q },
            { type: "image_url", image_url: { url: { mime: "image/png", sha256: sha } } },
          ],
          role: "user",
        },
      ],
      model: "gpt-4o-mini",
    });
    const [a, b] = ["a4e2474f09ed928119d82c471575fb7fd24f72c988b1aa6b4d3e2f4f6c7f1a20", "06ceaf5b9e8f1d2c3b4a5968778695a4b3c2d1e0f9e8d7c6b5a4938271605f4e"];
    const image = diffValues(withImage("Describe this chart.", a), withImage("Describe this chart.", b));
    expect(image.map((d) => d.path)).to.deep.equal(["messages[0].content[1].image_url.url.sha256"]);
    expect(isEdit(image)).to.equal(true);
    expect(nearness(image)).to.equal(1);
    const both = diffValues(withImage("Describe this chart.", a), withImage("Describe this chart briefly.", b));
    expect(isEdit(both)).to.equal(true);
  });

  it("a text question against content blocks (an image and its question) compares by the blocks' text: another question is replaced, not an edit; the same question gaining an image is an edit", () => {
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
    const withImage = (q: string) => ({ messages: [{ content: [{ type: "text", text: q }, image], role: "user" }], model: "gpt-4o-mini" });
    const other = diffValues(withImage("What is in this image?"), chat("Write a haiku about zebra crossings"));
    const gained = diffValues(chat("What is in this image?"), withImage("What is in this image?"));
    expect(other.map((d) => d.path)).to.deep.equal(["messages[0].content"]);
    expect(nearness(other)).to.equal(10);
    expect(isEdit(other)).to.equal(false); // no near-miss note for an unrelated new prompt
    expect(nearness(gained)).to.equal(1);
    expect(isEdit(gained)).to.equal(true);
    // the image fixture is no longer the nearest of an unrelated text prompt
    const near = nearestOf("chat", chat("Write a haiku about zebra crossings"), [
      candidate("a-image.json", withImage("What is in this image?")),
      candidate("b-text.json", chat("Write a limerick about crossings")),
    ]);
    expect(near?.file).to.equal("b-text.json");
    // off a text path a string against a list is a setting changed, an edit as before: stop "END" → ["END", "STOP"]
    expect(isEdit(diffValues({ stop: "END" }, { stop: ["END", "STOP"] }))).to.equal(true);
  });

  it("a part on one side only counts each value it holds, up to 3: a whole message 2, a tool list 3", () => {
    expect(
      nearness(
        diffValues(
          { messages: [{ content: "a", role: "user" }] },
          {
            messages: [
              { content: "a", role: "user" },
              { content: "b", role: "assistant" },
            ],
          },
        ),
      ),
    ).to.equal(2);
    expect(nearness(diffValues({}, { tools: [tool()] }))).to.equal(3);
    expect(nearness(diffValues({ tools: [tool()] }, {}))).to.equal(3);
    expect(nearness(diffValues({}, { tools: [] }))).to.equal(1);
  });

  it("of prompts built from one template, the one the edit changed least: the test's own, not a sibling's that sorts first", () => {
    // a describe.each over cities, each test's prompt then edited the same way: every sibling's prompt looks edited too
    const requested = chat("What is the weather in Turin? Be brief.");
    const files = [
      candidate("a.json", chat("What is the weather in Bari?")),
      candidate("b.json", chat("What is the weather in Turin?")),
      candidate("c.json", chat("What is the weather in Oslo?")),
    ];
    expect(nearestOf("chat", requested, files)?.file).to.equal("b.json");
    expect(nearestOf("chat", chat("What is the weather in Oslo today?"), [candidate("a.json", chat("What is the weather in Rome?")), files[2]])?.file).to.equal(
      "c.json",
    );
    expect(nearness(diffValues(chat("What is the weather in Turin?"), requested))).to.equal(1 + 10 / 39);
  });

  it("a fixture another request of this run used weighs more than an edit: a test not yet recorded again after a template edit is shown its own old fixture, not a recorded sibling's", () => {
    const requested = chat("What is the weather in Sofia? Be brief.");
    const own = candidate("b.json", chat("What is the weather in Sofia?"));
    const sibling = candidate("a.json", chat("What is the weather in Athens? Be brief."));
    expect(nearness(diffValues(sibling.request, requested))).to.be.below(nearness(diffValues(own.request, requested))); // nearer by text alone
    expect(nearestOf("chat", requested, [sibling, own])?.file).to.equal("a.json");
    expect(nearestOf("chat", requested, [{ ...sibling, usedThisRun: true }, own])?.file).to.equal("b.json");
    // a new test has no old form: the used sibling is still shown when nothing unused is nearer
    expect(nearestOf("chat", requested, [{ ...sibling, usedThisRun: true }])?.file).to.equal("a.json");
    expect(nearestOf("chat", requested, [{ ...sibling, usedThisRun: true }, candidate("c.json", chat("Tell me a joke about cats."))])?.file).to.equal("a.json");
  });

  it("of two as near, the file whose name sorts first, whatever the directory's order", () => {
    const requested = chat("Hi!");
    const files = [candidate("c.json", chat("Hi?")), candidate("a.json", chat("Hi.")), candidate("b.json", chat("Hi,"))];
    expect(nearestOf("chat", requested, files)?.file).to.equal("a.json");
    expect(nearestOf("chat", requested, [...files].reverse())?.file).to.equal("a.json");
  });

  it("only fixtures of the request's kind", () => {
    expect(nearestOf("embed_query", chat("Hi"), [candidate("a.json", chat("Hi"))])).to.equal(undefined);
  });
});

describe("diffValues: a member one client version sends and another leaves out alike is no difference", () => {
  it("ChatAnthropic's thinking: {type: disabled} on one side only is left out (a lookup finds either for the other); another thinking value, or one nested, is a difference", () => {
    const old = { model: "claude", max_tokens: 2048, thinking: { type: "disabled" } };
    expect(diffValues(old, { model: "claude", max_tokens: 16384 })).to.deep.equal([{ path: "max_tokens", recorded: 2048, requested: 16384 }]);
    expect(diffValues({ model: "claude" }, { model: "claude", thinking: { type: "disabled" } })).to.deep.equal([]);
    const enabled = { type: "enabled", budget_tokens: 1024 };
    expect(diffValues({ model: "claude" }, { model: "claude", thinking: enabled })).to.deep.equal([
      { path: "thinking", recorded: undefined, requested: enabled },
    ]);
    expect(diffValues({ a: {} }, { a: { thinking: { type: "disabled" } } })).to.have.length(1);
  });
});

describe("the nearest recorded tool call to an identical call made once more than recorded (trial 49 L3)", () => {
  const lookup = (key: string, call?: number) => ({ tool: "lookup", args: { key }, ...(call ? { call } : {}) });
  const used = (file: string, request: unknown): NearestCandidate => ({ kind: "tool", hash: file, file, request, usedThisRun: true });

  it("call 4 of lookup(fruit): the test's own call 3, used by that call this run, not another argument's unused fixture, nor call 1 or 2", () => {
    const candidates = [used("a.json", lookup("fruit")), used("b.json", lookup("fruit", 2)), used("c.json", lookup("fruit", 3))];
    candidates.push({ kind: "tool", hash: "0.json", file: "0.json", request: lookup("veg2") });
    const near = nearestOf("tool", lookup("fruit", 4), candidates);
    expect(near?.file).to.equal("c.json");
    expect(near?.differences).to.deep.equal([{ path: "call", recorded: 3, requested: 4 }]);
    expect(hintFor(near!.differences)).to.equal(
      `"call" numbers the identical calls (one tool, the same arguments) of one test: this is call 4, and the nearest recorded one is call 3, so the test makes the call more often than when it was recorded (a loop, a retry, one more branch); if that is meant, record the test again`,
    );
  });

  it("call 4 of lookup(fruit): the test's own call 3 before another argument's fixture at call 4 (one differing argument), and no hint for a call made fewer times (review 61 L8, L9)", () => {
    const near = nearestOf("tool", lookup("fruit", 4), [
      used("c.json", lookup("fruit", 3)),
      { kind: "tool", hash: "0.json", file: "0.json", request: lookup("veg", 4) },
    ]);
    expect(near?.file).to.equal("c.json");
    expect(hintFor([{ path: "call", recorded: 3, requested: 2 }])).to.equal(undefined);
  });

  it("call 2 when one was recorded: that one (its ordinal absent), with the hint", () => {
    const near = nearestOf("tool", lookup("fruit", 2), [
      used("a.json", lookup("fruit")),
      { kind: "tool", hash: "0.json", file: "0.json", request: lookup("veg2") },
    ]);
    expect(near?.file).to.equal("a.json");
    expect(hintFor(near!.differences)).to.include("this is call 2, and the nearest recorded one is call 1");
  });
});

describe("the nearest recorded agent turn whose tool message changed (trial 55, review 63)", () => {
  const turn = (system: string, toolText: string, status?: string) => ({
    messages: [
      { content: system, role: "system" },
      { content: "Weather in Oslo?", role: "user" },
      { content: "", role: "assistant", tool_calls: [{ args: { city: "Oslo" }, id: "call_1", name: "get_weather" }] },
      { content: toolText, name: "get_weather", role: "tool", tool_call_id: "call_1", ...(status ? { status } : {}) },
    ],
    model: "gpt-4o-mini",
  });

  it("a tool that answered when recorded and fails now: the test's own turn, not another test's first turn or another question", () => {
    const requested = turn("You are a weather bot.", "Tool 'get_weather' failed after 1 attempt with TransientError", "error");
    const own = candidate("b.json", turn("You are a weather bot.", "sunny in Oslo"));
    const otherQuestion = candidate("a.json", { messages: [{ content: "Weather in Oslo?", role: "user" }], model: "gpt-4o-mini" });
    const near = nearestOf("chat", requested, [otherQuestion, { ...own, usedThisRun: false }]);
    expect(near?.file).to.equal("b.json");
    expect(near?.differences.map((d) => d.path)).to.deep.equal(["messages[3].content", "messages[3].status"]);
  });

  it("a system prompt rewritten: the test's own old turn, not a sibling test's turn whose stubbed tool answered otherwise (review 63: the sibling won)", () => {
    const rewritten = "Answer as a pirate would, in one line.";
    const requested = turn(rewritten, "sunny in Oslo");
    const ownOld = candidate("a-own.json", turn("You are a weather bot.", "sunny in Oslo"));
    const sibling = candidate("b-sibling.json", turn(rewritten, "heavy showers in Oslo"));
    // each a replaced text, as near: the file name decides, as for any two as near (a tool text weighing less made the sibling win)
    expect(nearestOf("chat", requested, [sibling, ownOld])?.file).to.equal("a-own.json");
  });
});

describe("a tool that answers with an error on replay where it answered when recorded (toolFailedOnReplay; reviews 63, 64)", () => {
  const ask = (toolText: string, status?: string, tool = "get_weather") => ({
    messages: [
      { content: "Weather in Oslo?", role: "user" },
      { content: "", role: "assistant", tool_calls: [{ args: { city: "Oslo" }, id: "call_1", name: tool }] },
      { content: toolText, name: tool, role: "tool", tool_call_id: "call_1", ...(status ? { status } : {}) },
    ],
    model: "gpt-4o-mini",
  });
  const differences = (text: string, tool = "get_weather") => diffValues(ask("sunny in Oslo", undefined, tool), ask(text, "error", tool));
  const transient = { tool: "get_weather", name: "TransientError", className: "TransientError", message: "try again" };
  const retried = "Tool 'get_weather' failed after 1 attempt with TransientError";

  it("names the app's error class its text quotes, replayed by that tool in this test", () => {
    expect(toolFailedOnReplay(differences(retried), [transient], ask(retried, "error"))).to.deep.equal(transient);
    expect(hintFor(differences(retried), { errors: [transient], request: ask(retried, "error") })).to.include(
      `quoting the TransientError a tool fixture of this test replayed`,
    );
    // by its whole message too (ToolNode's own text: "Error: try again\n Please fix your mistakes.")
    expect(toolFailedOnReplay(differences("Error: try again\n Please fix your mistakes."), [transient], ask("x", "error"))).to.deep.equal(transient);
  });

  it("nothing for a builtin error (it replays as itself), another tool's error, a name inside another word, or no replayed error", () => {
    const plain = { tool: "get_weather", name: "Error", className: "Error", message: "" };
    const text = "Error: the service is down";
    expect(toolFailedOnReplay(differences(text), [plain], ask(text, "error"))).to.equal(undefined);
    expect(toolFailedOnReplay(differences(retried, "get_time"), [transient], ask(retried, "error", "get_time"))).to.equal(undefined);
    const longer = "failed with MyTransientErrors";
    expect(toolFailedOnReplay(differences(longer), [transient], ask(longer, "error"))).to.equal(undefined);
    expect(toolFailedOnReplay(differences(retried), [], ask(retried, "error"))).to.equal(undefined);
  });

  it("a class that sets no name (recorded as Error) is told apart by its class's name", () => {
    const unnamed = { tool: "get_weather", name: "Error", className: "TransientError", message: "try again" };
    const hint = hintFor(differences(retried), { errors: [unnamed], request: ask(retried, "error") });
    expect(hint).to.include(`retryOn: (e) => e.constructor.name === "TransientError"`).and.not.include(`e.name === "Error"`);
  });

  it("the nearest: a sibling test's turn whose stubbed tool threw is not nearer than the test's own after a prompt rewrite", () => {
    const withSystem = (system: string, toolText: string, status?: string) => {
      const r = ask(toolText, status);
      return { ...r, messages: [{ content: system, role: "system" }, ...r.messages] };
    };
    const rewritten = "Answer as a pirate would, in one line.";
    const requested = withSystem(rewritten, "sunny in Oslo");
    const ownOld = candidate("b-own.json", withSystem("You are a weather bot.", "sunny in Oslo"));
    const sibling = candidate("a-sibling.json", withSystem(rewritten, "Error: the service is down", "error"));
    expect(nearestOf("chat", requested, [sibling, ownOld])?.file).to.equal("b-own.json");
  });
});
