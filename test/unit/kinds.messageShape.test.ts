/**
 * A chat or chat_stream fixture whose message members replay cannot hand to LangChain (no
 * generation, no message, metadata that is not an object, content that is neither text nor
 * blocks, chunks whose metadata LangChain cannot merge): validate reports it, naming the field,
 * and replay refuses it with VCR_FIXTURE naming the file, 0 requests. Before, validate passed
 * them and replay threw a raw TypeError naming no file, or replayed the wrong content silently.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Vcr, VcrFixtureError } from "../../src/index";
import { validateFixtures } from "../../src/validate";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

type Rec = Record<string, any>;

/** Changes the only fixture's response in place (its request and hash untouched); returns the file. */
function damage(dir: string, change: (response: Rec) => void): string {
  const [name] = fixtureFiles(dir);
  const file = path.join(dir, name);
  const f = JSON.parse(fs.readFileSync(file, "utf8"));
  change(f.response);
  fs.writeFileSync(file, JSON.stringify(f, null, 2) + "\n");
  return file;
}

async function refused(dir: string, file: string, field: string, replay: () => Promise<unknown>, fake: FakeProvider): Promise<void> {
  const problems = await validateFixtures(dir);
  expect(
    problems.map((p) => p.file),
    field,
  ).to.deep.equal([file]);
  expect(problems[0].problem, field).to.include(`"${field}"`);
  const before = fake.count();
  const e = await replay().then(
    (v) => v,
    (err: unknown) => err,
  );
  expect(e, field).to.be.instanceOf(VcrFixtureError);
  expect((e as VcrFixtureError).file, field).to.equal(file);
  expect((e as Error).message, field).to.include(`"${field}"`);
  expect(fake.count() - before, field).to.equal(0);
}

describe("kinds: a chat message's members are checked as replay uses them", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  const cases: [string, (r: Rec) => void][] = [
    ["response.generations", (r) => (r.generations = [])],
    ["response.generations[0].message", (r) => delete r.generations[0].message],
    ["response.generations[0].message.response_metadata", (r) => (r.generations[0].message.response_metadata = true)],
    ["response.generations[0].message.additional_kwargs", (r) => (r.generations[0].message.additional_kwargs = -1)],
    ["response.generations[0].message.usage_metadata", (r) => (r.generations[0].message.usage_metadata = [1, "a"])],
    ["response.generations[0].message.tool_calls", (r) => (r.generations[0].message.tool_calls = { a: 1 })],
    ["response.generations[0].message.content", (r) => (r.generations[0].message.content = 7)],
    ["response.generations[0].message.content", (r) => (r.generations[0].message.content = true)],
    ["response.generations[0].message.content", (r) => (r.generations[0].message.content = {})],
    ["response.generations[0].message.content[0]", (r) => (r.generations[0].message.content = [1, "a"])],
    ["response.generations[0].shape", (r) => (r.generations[0].shape = "fields")],
    ["response.generations[0].shape.fields", (r) => (r.generations[0].shape.fields = "type")],
    ["response.generations[0].shape.metadata", (r) => (r.generations[0].shape.metadata = { finish_reason: 1 })],
    ["response.generations[0].shape.undefined", (r) => (r.generations[0].shape.undefined = [1])],
  ];
  for (const [field, change] of cases) {
    it(`${field} damaged (${change.toString().split("= ")[1]?.replace(/\)$/, "") ?? "deleted"}): validate reports it, replay refuses it naming the file`, async () => {
      const ask = (mode: "record_or_replay" | "replay_only") => openai(fake, new Vcr({ dir, mode }).cache).invoke([new HumanMessage("hi")]);
      await ask("record_or_replay");
      const file = damage(dir, change);
      await refused(dir, file, field, () => ask("replay_only"), fake);
    });
  }

  it("an empty content array is still a message (a tool-call-only answer): it passes validate and replays", async () => {
    const ask = (mode: "record_or_replay" | "replay_only") => openai(fake, new Vcr({ dir, mode }).cache).invoke([new HumanMessage("hi")]);
    await ask("record_or_replay");
    damage(dir, (r) => (r.generations[0].message.content = []));
    expect(await validateFixtures(dir)).to.deep.equal([]);
    expect((await ask("replay_only")).content).to.deep.equal([]);
  });
});

describe("kinds: a chat_stream's chunk messages are checked as replay uses them", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  const stream = async (mode: "record_or_replay" | "replay_only") => {
    let text = "";
    for await (const c of await openai(fake, new Vcr({ dir, mode }).cache).stream([new HumanMessage("stream me")])) text += c.content;
    return text;
  };

  it("a usage that is an array on most chunks and an object on the last (LangChain's merge throws): refused, naming the field", async () => {
    await stream("record_or_replay");
    const file = damage(dir, (r) => (r.common.message.response_metadata.usage = [1, "a"]));
    const last = JSON.parse(fs.readFileSync(file, "utf8")).response.chunks.length - 1;
    await refused(dir, file, `response.chunks[${last}].message.response_metadata.usage`, () => stream("replay_only"), fake);
  });

  it("a chunk whose shape names its undefined members with anything but strings: refused, naming the field", async () => {
    await stream("record_or_replay");
    const file = damage(dir, (r) => (r.chunks[1].shape = { undefined: [null] }));
    await refused(dir, file, "response.chunks[1].shape.undefined", () => stream("replay_only"), fake);
  });

  it("a chunk whose content is a number: refused, naming the field", async () => {
    await stream("record_or_replay");
    const file = damage(dir, (r) => (r.chunks[2].message = { content: 7 }));
    await refused(dir, file, "response.chunks[2].message.content", () => stream("replay_only"), fake);
  });
});
