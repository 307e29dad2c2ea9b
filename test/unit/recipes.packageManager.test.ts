/** The README's recipes as pnpm and Yarn users type them (test/recipes/packageManager.ts), offline: every documented line translates. */
import { expect } from "chai";
import { recipes } from "../recipes/blocks";
import { packageManager } from "../recipes/packageManager";

describe("recipe commands through pnpm and Yarn (what npm run test:package-managers runs)", () => {
  const documented = [...recipes().values()];

  it("every documented install line and test command translates", () => {
    for (const name of ["pnpm", "yarn"]) {
      const pm = packageManager(name);
      for (const r of documented) {
        for (const line of r.install)
          expect(pm.install(line, "/tmp/x/langchain-vcr-0.2.0.tgz"), `${name}: ${line}`).to.match(
            name === "pnpm" ? /^pnpm add --save-dev / : /^yarn add --dev /,
          );
        expect(pm.run(r.test), `${name}: ${r.test}`).to.match(name === "pnpm" ? /^(pnpm exec |node )/ : /^yarn /);
      }
    }
  });

  it("langchain-vcr comes from the tarball, versions stay, and npm's own lines are kept as written", () => {
    const line = "npm install --save-dev langchain-vcr @langchain/core typescript@5.9 mocha";
    expect(packageManager("pnpm").install(line, "/t/p.tgz")).to.equal(`pnpm add --save-dev --prefer-offline "/t/p.tgz" @langchain/core typescript@5.9 mocha`);
    expect(packageManager("yarn").install(line, "/t/p.tgz")).to.equal(`yarn add --dev "langchain-vcr@file:/t/p.tgz" @langchain/core typescript@5.9 mocha`);
    expect(packageManager("npm").install(line, "/t/p.tgz")).to.equal(
      `npm install --save-dev "/t/p.tgz" @langchain/core typescript@5.9 mocha --prefer-offline --no-audit --no-fund`,
    );
    expect(packageManager("yarn").run("node --require langchain-vcr/node-test --test")).to.equal("yarn node --require langchain-vcr/node-test --test");
    expect(packageManager("pnpm").run("npx vitest run")).to.equal("pnpm exec vitest run");
  });

  it("a line it cannot mean refuses, naming it: another flag, a flag's value, another command", () => {
    expect(() => packageManager("pnpm").install("npm install --tag next langchain-vcr", "/t/p.tgz")).to.throw(
      /cannot translate "npm install --tag next langchain-vcr".*--tag/,
    );
    expect(() => packageManager("yarn").install("npm install langchain-vcr", "/t/p.tgz")).to.throw(/only npm install --save-dev/);
    expect(() => packageManager("yarn").run("CI=1 node x.js")).to.throw(/cannot translate "CI=1 node x.js"/);
    expect(() => packageManager("bun")).to.throw(/PACKAGE_MANAGER=bun: expected one of npm, pnpm, yarn/);
  });
});
