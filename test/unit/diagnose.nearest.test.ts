import { expect } from "chai";
import { nearestOf, nearness, type NearestCandidate } from "../../src/diagnose/nearest";
import { diffValues } from "../../src/diagnose/diff";

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

  it("an edited prompt is nearer than a replaced one; a different model counts 5", () => {
    const edit = diffValues(chat("What is the capital of France?"), chat("What is the capital of Spain?"));
    const replaced = diffValues(chat("Say hello"), chat("What is the capital of Spain?"));
    expect([nearness(edit), nearness(replaced)]).to.deep.equal([1, 3]);
    expect(nearness(diffValues({ model: "a" }, { model: "b" }))).to.equal(5);
  });

  it("a part on one side only counts each value it holds: a whole message 2, a tool list one per leaf", () => {
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
    expect(nearness(diffValues({}, { tools: [tool()] }))).to.equal(5);
    expect(nearness(diffValues({ tools: [tool()] }, {}))).to.equal(5);
    expect(nearness(diffValues({}, { tools: [] }))).to.equal(1);
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
