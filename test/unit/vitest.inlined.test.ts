/** src/vitest/inlined.ts and src/install/vitestInlined.ts: what vitest inlines or bundles of LangChain, and what install() then does. */
import { expect } from "chai";
import { ROOT } from "../helpers/built";
import { bundledCore, inlinedIn, noteInlined } from "../../src/vitest/inlined";
import { checkInlined, INLINED_ENV, takeInlined } from "../../src/install/vitestInlined";

const inlining = (inline: unknown) => inlinedIn({ root: ROOT, server: { deps: { inline } } })?.names ?? [];

describe("vitest: LangChain packages a project's vitest inlines or bundles", () => {
  it("server.deps.inline: strings and RegExps matched against where each package is installed, as vitest matches ids; true as every installed one", () => {
    expect(inlining(undefined)).to.deep.equal([]);
    expect(inlining(["lodash", /^react/])).to.deep.equal([]);
    expect(inlining(["@langchain/openai"])).to.deep.equal(["@langchain/openai"]);
    expect(inlining([/@langchain\/(core|aws)/g])).to.deep.equal(["@langchain/core", "@langchain/aws"]);
    expect(inlining(["@langchain/core/dist"])).to.deep.equal(["@langchain/core"]); // a subpath of the package
    expect(inlining(true)).to.include("@langchain/core").and.to.include("@langchain/openai");
  });

  it("deps.optimizer: a bundled LangChain package other than core holds a copy of core; core alone does not", () => {
    const optimizing = (include: unknown, enabled = true) => bundledCore({ deps: { optimizer: { ssr: { enabled, include } } } });
    expect(optimizing(["@langchain/core"])).to.equal(undefined);
    expect(optimizing(["langchain"], false)).to.equal(undefined);
    expect(optimizing(["lodash", "langchain/agents"])).to.deep.equal({
      names: ["@langchain/core", "langchain/agents"],
      where: "deps.optimizer.ssr.include, whose bundles hold a copy of @langchain/core",
      fix: `remove "langchain/agents" from deps.optimizer.ssr.include`,
    });
    expect(bundledCore({ deps: { optimizer: { client: { enabled: true, include: ["@langchain/openai"] } } } })?.where).to.match(
      /^deps\.optimizer\.client\.include/,
    ); // vitest 4's key for jsdom tests
  });

  it("handed to the test processes in the project's env; the setup file takes it out of the environment; install() throws for core, warns once for integrations", () => {
    const config = {
      name: "llm",
      root: ROOT,
      server: { deps: { inline: [/@langchain\/openai/] } } as { deps: { inline: unknown } },
      env: {} as Record<string, string>,
    };
    noteInlined(config);
    const env: NodeJS.ProcessEnv = { ...config.env };
    takeInlined(env);
    expect(env[INLINED_ENV]).to.equal(undefined);
    const warned: string[] = [];
    checkInlined((t) => warned.push(t));
    checkInlined((t) => warned.push(t));
    expect(warned).to.have.length(1);
    expect(warned[0]).to.match(
      /^vcr\.install\(\) cannot reach the Embeddings classes of what vitest inlines: server\.deps\.inline of vitest project "llm" \(@langchain\/openai\)\./,
    );
    takeInlined({ [INLINED_ENV]: JSON.stringify({ names: ["@langchain/core"], where: "server.deps.inline", fix: "leave them out" }) });
    expect(() => checkInlined(() => {})).to.throw(/cannot reach the copy of @langchain\/core that vitest makes: server\.deps\.inline \(@langchain\/core\)/);
    const bare = { root: ROOT, env: {} as Record<string, string> };
    noteInlined(bare); // nothing found: set all the same, so it overrides what the root config's env hands every project
    takeInlined({ ...bare.env });
    expect(() => checkInlined(() => {})).to.not.throw(); // and no state is left behind for other tests
  });
});
