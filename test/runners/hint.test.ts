/** The re-record hint of a miss, in each runner's own words, with the test's title as a pattern. */
import { expect } from "chai";
import { rerecordHint } from "../../src/diagnose/messages";

describe("rerecordHint", () => {
  it("uses each runner's own flag and the real title", () => {
    expect(rerecordHint("mocha", "refunds order 42")).to.equal(`add -- --grep "refunds order 42" to record just this test`);
    expect(rerecordHint("vitest", "agent refunds")).to.equal(`add -- -t "agent refunds" to record just this test`);
    expect(rerecordHint("jest", "agent refunds")).to.equal(`add -- -t "agent refunds" to record just this test`);
    expect(rerecordHint("node-test", "refunds")).to.equal(`add --test-name-pattern "refunds" to the node --test command to record just this test`);
  });
  it("escapes the title's regular-expression characters (every runner reads a pattern)", () => {
    // single quotes: the shell passes the backslashes and the $ through as they are
    expect(rerecordHint("vitest", "costs $10 (net) + tax?")).to.equal(String.raw`add -- -t 'costs \$10 \(net\) \+ tax\?' to record just this test`);
    expect(rerecordHint("jest", "it's done.")).to.equal(String.raw`add -- -t 'it'\''s done\.' to record just this test`);
  });
  it("keeps the placeholder outside a test", () => {
    expect(rerecordHint(undefined, undefined)).to.equal(`add -- --grep "<test title>" to record just this test`);
  });
});
