/** Schema version 2 drops values that cannot change what the model does (src/canonical/inert.ts). */
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z as z4 } from "zod";
import { z as z3 } from "zod/v3";
import { dropInert } from "../../src/canonical/inert";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const orderTool = (z: any) =>
  tool(async () => "x", {
    name: "lookup_order",
    description: "Look up an order by id.",
    schema: z.object({
      orderId: z.string().describe("The order id"),
      qty: z.number().int().min(1).optional(),
      size: z.enum(["s", "m", "l"]),
      tags: z.array(z.string()).nullable(),
    }),
  });

describe("canonical v2: inert values", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("zod 3 and zod 4 tool schemas give the same key: recorded with one, replayed with the other, 0 requests", async () => {
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache)
      .bindTools([orderTool(z4)])
      .invoke([new HumanMessage("Where is order 42?")]);
    expect(fake.count()).to.equal(1);
    // both dialects reach the provider: the wire differs, the key does not
    expect(fake.requests[0].body.tools[0].function.parameters.$schema).to.equal("https://json-schema.org/draft/2020-12/schema");
    const replay = new Vcr({ dir, mode: "replay_only" });
    await openai(fake, replay.cache)
      .bindTools([orderTool(z3)])
      .invoke([new HumanMessage("Where is order 42?")]);
    expect(fake.count()).to.equal(1);
    expect(replay.stats().replayed).to.equal(1);
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(JSON.stringify(readFixtures(dir)[0].request)).to.not.match(/\$schema|9007199254740991/);
  });

  it('drops "$schema" dialect URIs and the safe-integer range on integers; keeps a parameter named $schema and real bounds', () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        $schema: { type: "string", $schema: "https://json-schema.org/draft/2020-12/schema" },
        n: { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
        m: { type: "integer", minimum: 1, maximum: 10 },
        x: { type: "number", maximum: 9007199254740991 },
      },
    };
    expect(dropInert([{ name: "t", parameters: schema }])).to.deep.equal([
      {
        name: "t",
        parameters: {
          type: "object",
          properties: {
            $schema: { type: "string" },
            n: { type: "integer" },
            m: { type: "integer", minimum: 1, maximum: 10 },
            x: { type: "number", maximum: 9007199254740991 },
          },
        },
      },
    ]);
  });
});
