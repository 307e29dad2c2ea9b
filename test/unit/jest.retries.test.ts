/** JestAttempts: which attempt jest-circus's events say is retried, for the jest plugin to undo. */
import { expect } from "chai";
import { JestAttempts, onCircusEvent, type Attempt } from "../../src/jest/retries";
import { Scope } from "../../src/scope";

function follow(concurrentScopes = new Map<object, Scope>()) {
  const retried: Attempt<string>[] = [];
  const attempts = new JestAttempts<string>(
    (t) => concurrentScopes.get(t),
    (a) => retried.push(a),
  );
  return { attempts, retried };
}

describe("JestAttempts (jest.retryTimes: the failed attempt jest runs again)", () => {
  it("a sequential test's failed attempt, as afterEach ended it, is handed over at test_retry, once; a passed one never", () => {
    const { attempts, retried } = follow();
    const flaky = { type: "test", errors: [] as unknown[] };
    const steady = { type: "test", errors: [] as unknown[] };
    const first = new Scope("flaky");
    attempts.handle({ name: "test_start", test: flaky });
    attempts.ended(first, "entry 1");
    flaky.errors.push(new Error("attempt 1 fails"));
    attempts.handle({ name: "test_done", test: flaky });
    attempts.handle({ name: "test_start", test: steady });
    attempts.ended(new Scope("steady"), undefined);
    attempts.handle({ name: "test_done", test: steady });
    attempts.handle({ name: "test_retry", test: steady }); // never failed: nothing
    expect(retried).to.deep.equal([]);
    attempts.handle({ name: "test_retry", test: flaky });
    attempts.handle({ name: "test_retry", test: flaky }); // handed over already
    expect(retried).to.have.length(1);
    expect(retried[0]).to.deep.equal({ scope: first, entry: "entry 1" });
    expect(first.outcome).to.equal("failed");
    flaky.errors = [];
    attempts.handle({ name: "test_start", test: flaky });
    attempts.ended(new Scope("flaky"), "entry 2");
    attempts.handle({ name: "test_done", test: flaky }); // the retry passed
    attempts.handle({ name: "test_retry", test: flaky });
    expect(retried).to.have.length(1);
  });

  it("a test whose attempt the plugin's afterEach did not end hands over nothing: the test before it is not taken for it", () => {
    const { attempts, retried } = follow();
    const t = { type: "test", errors: [new Error("x")] };
    attempts.ended(new Scope("earlier"), "earlier entry");
    attempts.handle({ name: "test_start", test: t }); // forgets the earlier test's attempt
    attempts.handle({ name: "test_done", test: t });
    attempts.handle({ name: "test_retry", test: t });
    expect(retried).to.deep.equal([]);
  });

  it("a concurrent test's attempt is its scope; describe_retry hands over the failed attempts of every test under the block", () => {
    const c = { type: "test", concurrent: true, errors: [new Error("fails")] };
    const inner = { type: "test", errors: [new Error("fails")] };
    const passed = { type: "test", errors: [] };
    const cScope = new Scope("c");
    const { attempts, retried } = follow(new Map([[c, cScope]]));
    attempts.handle({ name: "test_start", test: c });
    attempts.handle({ name: "test_done", test: c });
    const innerScope = new Scope("inner");
    attempts.handle({ name: "test_start", test: inner });
    attempts.ended(innerScope, "inner entry");
    attempts.handle({ name: "test_done", test: inner });
    attempts.handle({ name: "test_start", test: passed });
    attempts.ended(new Scope("passed"), "passed entry");
    attempts.handle({ name: "test_done", test: passed });
    const block = { type: "describeBlock", children: [c, { type: "describeBlock", children: [inner, passed] }] };
    attempts.handle({ name: "describe_retry", describeBlock: block });
    expect(retried).to.deep.equal([{ scope: cScope }, { scope: innerScope, entry: "inner entry" }]);
  });

  it("joins jest-circus's handler list on the global where there is one, and says so; elsewhere, false", () => {
    const key = Symbol.for("EVENT_HANDLERS");
    const g = globalThis as Record<symbol, unknown>;
    const before = g[key];
    try {
      delete g[key];
      expect(onCircusEvent(() => {})).to.equal(false);
      const list: unknown[] = [];
      g[key] = list;
      const handler = () => {};
      expect(onCircusEvent(handler)).to.equal(true);
      expect(list).to.deep.equal([handler]);
    } finally {
      if (before === undefined) delete g[key];
      else g[key] = before;
    }
  });
});
