/**
 * `withVcr` changes the mode of what runs inside it, never the keys: one tool call before a
 * `withVcr({})` scope and two identical calls inside it are calls 1, 2 and 3 of the test, and
 * replay as such (issue 18).
 */
import { tool } from "@langchain/core/tools";
import { expect } from "chai";
import { z } from "zod";
import { Vcr, withVcr } from "../../src/index";
import { readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

function counted() {
  const runs = { n: 0 };
  const t = tool(async ({ q }: { q: string }) => `answer ${q} #${++runs.n}`, {
    name: "lookup",
    description: "Looks a thing up.",
    schema: z.object({ q: z.string() }),
  });
  return { t, runs };
}

async function threeCalls(vcr: Vcr): Promise<{ out: string[]; runs: number }> {
  const { t, runs } = counted();
  const wrapped = vcr.tool(t);
  const out = [String(await wrapped.invoke({ q: "x" }))];
  await withVcr({}, async () => {
    out.push(String(await wrapped.invoke({ q: "x" })));
    out.push(String(await wrapped.invoke({ q: "x" })));
  });
  return { out, runs: runs.n };
}

// Each mocha test is one scope: the first records, the second (a new test, numbering from 1) replays.
describe("withVcr keeps the test's tool-call numbering", () => {
  let dir: string;
  after(removeTmpDirs);

  it("records calls 1, 2, 3 with three body runs", async () => {
    dir = tmpDir("vcr-withvcr-");
    const rec = await withVcr({ mode: "record_or_replay" }, () => threeCalls(new Vcr({ dir })));
    expect(rec.runs).to.equal(3);
    expect(rec.out).to.deep.equal(["answer x #1", "answer x #2", "answer x #3"]);
    const calls = readFixtures(dir)
      .map((f) => f.request.call ?? 1)
      .sort();
    expect(calls).to.deep.equal([1, 2, 3]);
  });

  it("a later test replays the three recorded calls in order under replay_only, running the body 0 times", async () => {
    const replay = await withVcr({ mode: "replay_only" }, () => threeCalls(new Vcr({ dir })));
    expect(replay.runs).to.equal(0);
    expect(replay.out).to.deep.equal(["answer x #1", "answer x #2", "answer x #3"]);
  });
});
