import { expect } from "chai";
import { esmCoreNote } from "../../src/install/esmCoreFallback";

describe("esmCoreNote: what vcr.install() says when the ESM copy of core cannot be loaded", () => {
  const cause = "Must use import to load ES Module: /p/node_modules/@langchain/core/dist/tools/index.js";

  it("on a Node whose require() cannot load ES modules: names the Node and the upgrade", () => {
    const note = esmCoreNote(cause, "v20.18.1", {}, []);
    expect(note).to.include("are not recorded on this Node (v20.18.1)").and.include("use Node 20.19+ (or 22.12+ on Node 22), or pass the model object itself");
    for (const v of ["v22.11.0", "v21.7.3"])
      expect(esmCoreNote(cause, v, {}, []))
        .to.include(`on this Node (${v})`)
        .and.include("22.12+ on Node 22");
  });

  it("on a Node that can (20.19+, 22.12+, 23+): blames the module loader in use, never the Node", () => {
    for (const v of ["v20.19.0", "v20.20.2", "v22.12.0", "v24.1.0"]) {
      const note = esmCoreNote(cause, v, {}, [])!;
      expect(note, v).to.include("under this process's module loader (not Node's own require)").and.include("Fix it: pass the model object itself:");
      expect(note, v).to.not.include("use Node 20.19");
    }
  });

  it("under jest: nothing without --experimental-vm-modules (jest cannot import() a provider there either); with it, names jest's loader", () => {
    expect(esmCoreNote(cause, "v20.20.2", { JEST_WORKER_ID: "1" }, [])).to.equal(undefined);
    expect(esmCoreNote(cause, "v20.20.2", { JEST_WORKER_ID: "1", NODE_OPTIONS: "--experimental-vm-modules" }, [])).to.include("under jest's module loader");
    expect(esmCoreNote(cause, "v20.20.2", { JEST_WORKER_ID: "1" }, ["--experimental-vm-modules"])).to.include("under jest's module loader");
  });
});
