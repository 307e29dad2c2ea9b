/**
 * The run's summary says which of its `bypassed` calls were tool bodies run for real (`toolMode: "execute"`, mode
 * `bypass`): no model call. In a sealed CI run "1 bypassed" alone read as a live call (user trial 56 L2).
 */
import { expect } from "chai";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { Vcr, withVcr } from "../../src/index";
import { Usage } from "../../src/runner/usage";
import { usageSummaryLine } from "../../src/runner/summary";
import { inOwnTest } from "../helpers/ownTest";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("the summary's bypassed count names tool bodies run for real", () => {
  after(removeTmpDirs);

  it("a tool run under toolMode execute in a replay_only run: '1 bypassed (tool bodies run for real, not model calls: 1)'; the body ran once, nothing written", async () => {
    const dir = tmpDir();
    let runs = 0;
    const lookup = tool(async ({ city }: { city: string }) => (runs++, `sunny in ${city}`), {
      name: "get_weather",
      description: "Weather for a city",
      schema: z.object({ city: z.string() }),
    });
    const vcr = new Vcr({ dir, mode: "replay_only" });
    const usage = new Usage().start();
    try {
      const out = await inOwnTest({}, () =>
        withVcr({ toolMode: "execute" }, () => vcr.tool(lookup).invoke({ type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Oslo" } })),
      );
      expect(String((out as { content: unknown }).content)).to.equal("sunny in Oslo");
    } finally {
      usage.stop();
    }
    expect([runs, fixtureFiles(dir).length, usage.totals.bypassed, usage.totals.bypassedTools]).to.deep.equal([1, 0, 1, 1]);
    expect(usageSummaryLine(usage)).to.include("0 recorded, 1 bypassed (tool bodies run for real, not model calls: 1), 0 missed");
  });
});
