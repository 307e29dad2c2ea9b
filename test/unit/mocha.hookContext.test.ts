import { expect } from "chai";
import Mocha from "mocha";
import { giveOwnContexts } from "../../src/mocha/hookContext";

type HookLike = { fn: unknown; ctx: object };

describe("giveOwnContexts (the plugin's each-hooks off mocha's shared root context)", () => {
  const ours = { beforeEach() {}, afterEach() {} };
  const theirs = () => {};

  function rootSuite(): Mocha.Suite {
    const root = new Mocha.Suite("", new Mocha.Context());
    root.root = true;
    root.beforeEach(ours.beforeEach);
    root.beforeEach(theirs);
    root.afterEach(ours.afterEach);
    return root;
  }
  const hooks = (root: Mocha.Suite, name: string) => (root as unknown as { getHooks(n: string): HookLike[] }).getHooks(name);

  it("gives only the named hooks a context inheriting from the root one, once however often it is called", () => {
    const root = rootSuite();
    giveOwnContexts(root, [ours.beforeEach, ours.afterEach]);
    giveOwnContexts(root, [ours.beforeEach, ours.afterEach]); // parallel workers run the root beforeAll once per file
    const [mineBefore, userBefore] = hooks(root, "beforeEach");
    const [mineAfter] = hooks(root, "afterEach");
    for (const h of [mineBefore, mineAfter]) {
      expect(h.ctx).to.not.equal(root.ctx);
      expect(Object.getPrototypeOf(h.ctx)).to.equal(root.ctx);
    }
    expect(userBefore.ctx).to.equal(root.ctx);
  });

  it("mocha runs a hook so given with this.currentTest set, and never sets it on the root context", async () => {
    const root = rootSuite();
    const seen: string[] = [];
    const spy = function (this: Mocha.Context) {
      seen.push(this.currentTest?.title ?? "(none)");
      expect(Object.prototype.hasOwnProperty.call(root.ctx, "currentTest")).to.equal(false);
    };
    root.afterEach(spy);
    giveOwnContexts(root, [spy]);
    const suite = Mocha.Suite.create(root, "s");
    suite.addTest(new Mocha.Test("t1", () => {}));
    suite.addTest(new Mocha.Test("t2", () => {}));
    const failures = await new Promise<number>((resolve) => new Mocha.Runner(root, { delay: false }).run(resolve));
    expect(failures).to.equal(0);
    expect(seen).to.deep.equal(["t1", "t2"]);
  });

  it("leaves anything that is not a mocha suite alone", () => {
    expect(() => giveOwnContexts(undefined, [])).to.not.throw();
    expect(() => giveOwnContexts({ getHooks: () => "not a list" }, [])).to.not.throw();
  });
});
