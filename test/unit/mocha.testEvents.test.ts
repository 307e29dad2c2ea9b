/**
 * followTests on mocha's real Runner, in this process: where a test's scope starts and ends
 * among its hooks, what happens when ending a scope throws, and the `test` events mocha sends
 * for tests a failing hook affected.
 */
import { expect } from "chai";
import Mocha from "mocha";
import { asRunner, followTests, isDryRun, type RunnerLike } from "../../src/mocha/testEvents";

type Log = string[];

/** A root suite with the plugin's own each-hook pair (taken off by followTests) and one suite `s`. */
function rootWithPair(log: Log): { root: Mocha.Suite; s: Mocha.Suite; pair: (() => void)[] } {
  const root = new Mocha.Suite("", new Mocha.Context());
  root.root = true;
  const pair = [() => log.push("plugin beforeEach"), () => log.push("plugin afterEach")];
  root.beforeEach(pair[0]);
  root.afterEach(pair[1]);
  const s = Mocha.Suite.create(root, "s");
  return { root, s, pair };
}

function run(root: Mocha.Suite, opts: Record<string, unknown>, follow: (runner: RunnerLike) => void): Promise<{ failures: number; runner: Mocha.Runner }> {
  const runner = new Mocha.Runner(root, { delay: false, ...opts } as never);
  follow(runner as unknown as RunnerLike); // its `fail` is protected in @types/mocha, public in mocha
  return new Promise((resolve) => runner.run((failures) => resolve({ failures, runner })));
}

const title = (t: unknown) => (t as Mocha.Test).title;

describe("followTests (a serial mocha run's test scopes from the runner's events)", () => {
  it("a test's scope spans its beforeEach and afterEach hooks; before/after hooks are outside any test; the plugin's pair is taken off", async () => {
    const log: Log = [];
    const { root, s, pair } = rootWithPair(log);
    s.beforeAll(() => log.push("before s"));
    s.beforeEach(() => log.push("beforeEach"));
    s.afterEach(() => log.push("afterEach"));
    s.afterAll(() => log.push("after s"));
    s.addTest(new Mocha.Test("t1", () => log.push("body t1")));
    s.addTest(
      new Mocha.Test("t2", () => {
        log.push("body t2");
        throw new Error("t2 fails");
      }),
    );
    const { failures } = await run(root, {}, (runner) =>
      expect(
        followTests(
          runner,
          root,
          pair,
          (t) => log.push(`start ${title(t)}`),
          (t) => log.push(`end ${title(t)} ${(t as Mocha.Test).state}`),
        ),
      ).to.equal(true),
    );
    expect(failures).to.equal(1);
    expect(log).to.deep.equal([
      "before s",
      "start t1",
      "beforeEach",
      "body t1",
      "afterEach",
      "end t1 passed",
      "start t2",
      "beforeEach",
      "body t2",
      "afterEach",
      "end t2 failed",
      "after s",
    ]);
  });

  it("ending a scope that throws fails that test (mocha counts it and runs on) instead of stopping the run", async () => {
    const log: Log = [];
    const { root, s, pair } = rootWithPair(log);
    for (const t of ["t1", "t2", "t3"]) s.addTest(new Mocha.Test(t, () => log.push(`body ${t}`)));
    const { failures } = await run(root, {}, (runner) =>
      followTests(
        runner,
        root,
        pair,
        () => undefined,
        (t) => {
          if (title(t) === "t1") throw new Error("could not restore a fixture");
        },
      ),
    );
    expect(log).to.deep.equal(["body t1", "body t2", "body t3"]);
    expect(failures).to.equal(1);
    expect(s.tests.map((t) => t.state)).to.deep.equal(["failed", "passed", "passed"]);
  });

  it("mocha's report of tests a failing beforeEach affected (--fail-hook-affected-tests) starts no scope", async () => {
    const log: Log = [];
    const { root, s, pair } = rootWithPair(log);
    s.beforeEach(() => {
      throw new Error("beforeEach fails");
    });
    for (const t of ["t1", "t2"]) s.addTest(new Mocha.Test(t, () => log.push(`body ${t}`)));
    const { failures } = await run(root, { failHookAffectedTests: true }, (runner) =>
      followTests(
        runner,
        root,
        pair,
        (t) => log.push(`start ${title(t)}`),
        (t) => log.push(`end ${title(t)}`),
      ),
    );
    expect(failures).to.be.greaterThan(0);
    expect(log).to.deep.equal(["start t1", "end t1"]);
  });

  it("changes nothing, and follows nothing, where the root suite's hooks cannot be read", () => {
    let listened = 0;
    const runner = { on: () => listened++ };
    expect(
      followTests(
        runner,
        { getHooks: () => "not a list" },
        [],
        () => undefined,
        () => undefined,
      ),
    ).to.equal(false);
    expect(
      followTests(
        runner,
        undefined,
        [],
        () => undefined,
        () => undefined,
      ),
    ).to.equal(false);
    expect(listened).to.equal(0);
  });
});

describe("isDryRun (mocha's runner, as mochaGlobalSetup gets it)", () => {
  for (const dryRun of [true, false]) {
    it(`reads ${dryRun ? "a dry run" : "a run"} from the runner a real Mocha instance hands its global setup`, async () => {
      const seen: boolean[] = [];
      const setup = function (this: unknown) {
        seen.push(isDryRun(asRunner(this)));
      };
      const mocha = new Mocha({ dryRun, reporter: class {} as never, globalSetup: [setup] } as Mocha.MochaOptions); // @types/mocha lacks globalSetup
      mocha.suite.addTest(new Mocha.Test("t", () => {}));
      await new Promise<void>((resolve) => mocha.run(() => resolve()));
      expect(seen).to.deep.equal([dryRun]);
    });
  }
});
