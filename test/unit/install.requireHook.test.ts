/**
 * The Module._load hook of vcr.install() in CommonJS (src/install/requireHook.ts): a library that
 * restores Module._load to what it found before ours (a stub's restore) must not leave the next
 * install() without it, or the copies of core required after it would not be patched.
 */
import { expect } from "chai";
import Module from "node:module";
import { startRequireHook, stopRequireHook } from "../../src/install/requireHook";

type Load = (...args: unknown[]) => unknown;
const loader = Module as unknown as { _load: Load };

describe("install: the require hook", () => {
  afterEach(() => stopRequireHook());

  it("after another library restores Module._load to the function it found before ours, the next start puts ours back", () => {
    const before = loader._load;
    const stub: Load = function (this: unknown, ...args: unknown[]) {
      return before.apply(this, args);
    };
    loader._load = stub; // a stub wraps Module._load before install()
    startRequireHook();
    const ours = loader._load;
    expect(ours).to.not.equal(stub);
    loader._load = stub; // its restore, after install(): ours is gone
    startRequireHook();
    expect(loader._load).to.not.equal(stub);
    expect(require("node:path")).to.have.property("join"); // it still loads
    stopRequireHook();
    expect(loader._load).to.equal(stub);
    loader._load = before;
  });
});
