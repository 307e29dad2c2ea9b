/** src/install/pending.ts: waiting for what install() loads with import(), bounded. */
import { expect } from "chai";
import { installPending, installSettled, trackInstallWork } from "../../src/install/pending";
import { stderrOf } from "../helpers/notes";

describe("install(): the wait for its import() work", () => {
  it("nothing under way: nothing to wait for (undefined, no promise)", () => {
    expect(installPending()).to.equal(false);
    expect(installSettled()).to.equal(undefined);
  });

  it("waits for work started meanwhile too, and settles when it rejects", async () => {
    let finishFirst!: () => void;
    trackInstallWork(new Promise<void>((resolve) => (finishFirst = resolve)), "first");
    const settled = installSettled();
    let done = false;
    void settled!.then(() => (done = true));
    const second = Promise.reject(new Error("could not load"));
    second.catch(() => {});
    trackInstallWork(second, "second");
    await new Promise((r) => setTimeout(r, 20));
    expect(done).to.equal(false);
    finishFirst();
    await settled;
    expect([done, installPending()]).to.deep.equal([true, false]);
  });

  it("work that does not settle within the limit: a warning naming it, once; the wait ends, and that work is not waited for again", async () => {
    let finish!: () => void;
    trackInstallWork(new Promise<void>((resolve) => (finish = resolve)), "the ESM copy of @langchain/core in /x");
    const err = await stderrOf(async () => installSettled(30));
    expect(err).to.include(
      "vcr.install() is still loading the ESM copy of @langchain/core in /x with import() after 0.03 s; the tests go on without waiting for it again.",
    );
    expect(err.match(/Fix it: /g)).to.have.length(1);
    expect([installPending(), installSettled(30)]).to.deep.equal([false, undefined]); // before: every later test waited again, and warned again
    finish(); // nothing left under way for the tests after this one
  });
});
