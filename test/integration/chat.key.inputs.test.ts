/** What enters a chat key for unusual inputs: message-likes, text that looks like a data URL, values inside content blocks. */
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { Vcr } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

describe("chat key: unusual inputs", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("message-likes passed straight to generate() are keyed by their text (they all shared one key)", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = openai(fake, vcr.cache);
    const a = await model.generate([["hello" as never]]);
    const b = await model.generate([[["human", "goodbye"] as never]]);
    expect(a.generations[0][0].text).to.equal("echo: hello");
    expect(b.generations[0][0].text).to.equal("echo: goodbye");
    expect(
      readFixtures(dir)
        .map((f) => f.request.messages[0])
        .sort((x, y) => x.content.localeCompare(y.content)),
    ).to.deep.equal([
      { role: "user", content: "goodbye" },
      { role: "user", content: "hello" },
    ]);
  });

  it("a text block starting with data: and a stray % is text, not a crash", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const msg = new HumanMessage({ content: [{ type: "text", text: "data:50% off" }] });
    await openai(fake, vcr.cache).invoke([msg]);
    expect(readFixtures(dir)[0].request.messages[0].content).to.deep.equal([{ type: "text", text: "data:50% off" }]);
  });

  it("a Date inside a content block is keyed by its value, not as {}", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const ask = (d: string) =>
      openai(fake, vcr.cache).invoke([new HumanMessage({ content: [{ type: "text", text: "when?", meta: { at: new Date(d) } } as never] })]);
    await ask("2026-01-01T00:00:00Z");
    await ask("2027-01-01T00:00:00Z");
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(
      readFixtures(dir)
        .map((f) => f.request.messages[0].content[0].meta.at)
        .sort(),
    ).to.deep.equal(["2026-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"]);
  });
});
