/** When this process's run started: handed down by the runner's main process, else this process's own start. */
import { expect } from "chai";
import { runStartedAt } from "../../src/runner/runStart";
import { SHARE_ENV } from "../../src/runner/shareEnv";
import { CONTEXT_ENV } from "../../src/mocha/contextEnv";

describe("runStartedAt", () => {
  it("reads the run share (vitest, jest, node:test), then mocha's run context, else this process's start", () => {
    const at = "2026-12-01T10:00:00.000Z";
    expect(runStartedAt({ [SHARE_ENV]: JSON.stringify({ startedAt: at }) })).to.equal(Date.parse(at));
    expect(runStartedAt({ [CONTEXT_ENV]: JSON.stringify({ startedAt: at }) })).to.equal(Date.parse(at));
    const own = runStartedAt({ [SHARE_ENV]: "{not json", [CONTEXT_ENV]: JSON.stringify({ startedAt: "yesterday-ish" }) });
    expect(own).to.be.closeTo(Date.now() - process.uptime() * 1000, 50);
  });

  it("prefers when the tests of a watch session's rerun started, which each rerun's start hands down", () => {
    const share = { startedAt: "2026-12-01T10:00:00.000Z", testsStartedAt: "2026-12-01T10:05:00.000Z" };
    expect(runStartedAt({ [SHARE_ENV]: JSON.stringify(share) })).to.equal(Date.parse(share.testsStartedAt));
  });
});
