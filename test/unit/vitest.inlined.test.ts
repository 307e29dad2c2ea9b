/** src/vitest/inlined.ts: which LangChain packages a vitest `server.deps.inline` inlines, and what install() then does. */
import { expect } from "chai";
import { checkInlined, INLINED_ENV, inlinedLangchain } from "../../src/vitest/inlined";

describe("vitest: LangChain packages that server.deps.inline inlines", () => {
  it("matches strings and RegExps as vitest does, and true as everything", () => {
    expect(inlinedLangchain(undefined)).to.deep.equal([]);
    expect(inlinedLangchain(["lodash", /^react/])).to.deep.equal([]);
    expect(inlinedLangchain(["@langchain/openai"])).to.deep.equal(["@langchain/openai"]);
    expect(inlinedLangchain([/@langchain\/(core|aws)/g])).to.deep.equal(["@langchain/core", "@langchain/aws"]);
    expect(inlinedLangchain(true)).to.include("@langchain/core").and.to.have.length(7);
  });

  it("install(): an inlined core throws, inlined integrations warn", () => {
    const warned: string[] = [];
    expect(() => checkInlined((t) => warned.push(t), { [INLINED_ENV]: "@langchain/core,@langchain/openai" })).to.throw(
      /cannot reach the @langchain\/core that vitest inlines/,
    );
    checkInlined((t) => warned.push(t), { [INLINED_ENV]: "@langchain/openai" });
    checkInlined((t) => warned.push(t), {});
    expect(warned).to.have.length(1);
    expect(warned[0]).to.match(
      /^vcr\.install\(\) cannot reach the Embeddings classes of what vitest inlines: server\.deps\.inline in vitest\.config \(@langchain\/openai\)\./,
    );
  });
});
