/** Which vitest projects without the plugin's setup file make a run partial: those that ran a test file. */
import { expect } from "chai";
import { unscopedThatRan } from "../../src/vitest/reporter";

describe("vitest: projects without the plugin's setup file (unscopedThatRan)", () => {
  it('only the projects that ran a test file in this run; an unnamed project is "(unnamed)"', () => {
    const modules = [
      { moduleId: "/p/a.test.ts", project: { name: "bare" } },
      { moduleId: "/p/b.test.ts", project: { name: "llm" } },
      { moduleId: "/p/c.test.ts", project: { name: "" } },
    ];
    expect(unscopedThatRan(["bare", "ui", "(unnamed)"], modules)).to.deep.equal(["bare", "(unnamed)"]);
    expect(unscopedThatRan(["ui"], modules)).to.deep.equal([]);
  });

  it("all of them when vitest does not say which project a test file ran in", () => {
    expect(unscopedThatRan(["bare", "ui"], [{ moduleId: "/p/a.test.ts" }])).to.deep.equal(["bare", "ui"]);
  });
});
