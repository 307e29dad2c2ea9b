/**
 * createAgent's `responseFormat: toolStrategy(schema)` with a schema without a title: langchain
 * names its tool `extract-<n>` from a counter every such agent built in the process takes a number
 * from, and the name is in the key. A later test run alone (`-t`) named it otherwise and missed,
 * and recording it so only moved the miss to the full run (user trial 51). The recording now warns
 * of a name past the first; the miss's hint names the cause and the fix (a title), which holds.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { createAgent, toolStrategy } from "langchain";
import { z } from "zod";
import { Vcr, VcrMissError, type VcrMode } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { stderrOf } from "../helpers/notes";
import { inOwnTest } from "../helpers/ownTest";

describe("createAgent's counted structured-output tool name (extract-<n>)", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)), "vcr-counted-name-");

  /** The structured-output tool names the recorded chat fixtures offer, in the order of their questions (Rome, Oslo). */
  function toolNames(): string[] {
    const requests = fs
      .readdirSync(dir)
      .map(
        (f) => (JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { request: { tools: { name: string }[]; messages: { content: string }[] } }).request,
      );
    return ["Rome", "Oslo"].map((city) => requests.find((r) => r.messages[0]!.content.includes(city))!.tools[0]!.name);
  }

  const weather = () => z.object({ city: z.string(), temperature: z.number() });

  /** Builds and asks one agent per question (each takes the next counted name unless `titled`); each agent's last message. */
  function ask(mode: VcrMode, questions: string[], title: string, titled = false): Promise<unknown[]> {
    return inOwnTest(
      {},
      async () => {
        const vcr = new Vcr({ dir, mode });
        const out: unknown[] = [];
        for (const q of questions) {
          const schema = titled ? weather().meta({ title: "weather_report" }) : weather();
          const agent = createAgent({ model: openai(fake, vcr.cache), tools: [], responseFormat: toolStrategy(schema) });
          const { messages } = await agent.invoke({ messages: [{ role: "user", content: q }] });
          out.push(messages[messages.length - 1]!.content);
        }
        return out;
      },
      title,
    );
  }

  it("a schema without a title: the recording warns of the second agent's name; a run of the second alone misses with a hint that names the cause and the title fix", async () => {
    const text = await stderrOf(() => ask("record_or_replay", ["Weather in Rome?", "Weather in Oslo?"], "two agents"));
    expect(fake.count()).to.equal(2);
    const [first, second] = toolNames(); // the names langchain counted: Rome's, then Oslo's
    expect(Number(second.slice("extract-".length))).to.equal(Number(first.slice("extract-".length)) + 1);
    const warnedOf = Number(first.slice("extract-".length)) >= 2 ? first : second; // extract-1 warns of nothing (the counter is the process's: earlier tests' agents count)
    expect(text).to.include(
      `a chat request of test "two agents" offers the tool "${warnedOf}": langchain's createAgent names a responseFormat schema without a title`,
    );
    expect(text).to.include(`Fix: give the schema a title, which names the tool instead (zod 4: z.object({ … }).meta({ title: "weather_report" })`);
    const err = await ask("replay_only", ["Weather in Oslo?"], "second alone").then(
      () => expect.fail("replayed"),
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcrMissError);
    const message = (err as Error).message;
    expect(message).to.match(/tools\[0\]\.name: "extract-\d+" → "extract-\d+"/);
    expect(message).to.include(`hint: the differing names are ones langchain's createAgent gives a responseFormat schema without a title`);
    expect(message)
      .to.include("Recording it again only moves the miss while the schema has no title: give it one as the hint says")
      .and.not.include("To record it");
    expect(fake.count()).to.equal(2);
  });

  it("a titled schema: no warning, and the second agent's question replays alone with 0 requests", async () => {
    const text = await stderrOf(() => ask("record_or_replay", ["Weather in Rome?", "Weather in Oslo?"], "two titled agents", true));
    expect(fake.count()).to.equal(2);
    expect(text).not.to.include("offers the tool");
    const recorded = await ask("replay_only", ["Weather in Rome?", "Weather in Oslo?"], "two titled agents again", true);
    expect(await ask("replay_only", ["Weather in Oslo?"], "second titled alone", true)).to.deep.equal(recorded.slice(1));
    expect(fake.count()).to.equal(2);
  });
});
