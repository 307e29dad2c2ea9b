/** The one rule for values a provider treats as absent (src/canonical/absent.ts). */
import { expect } from "chai";
import { ABSENT_VALUES } from "../../src/canonical/absent";
import { canonicalParams } from "../../src/canonical/params";

function withPath(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, k) => ({ [k]: inner }), value as never);
}

describe("values a provider treats as absent", () => {
  for (const { path, value, client } of ABSENT_VALUES) {
    const name = path.join(".");
    it(`${name} = ${JSON.stringify(value)} (${client}) keys like not sending it; another value still enters the key`, () => {
      const sent = { model: "m", temperature: 0.2, ...withPath(path, value) };
      const before = JSON.stringify(sent);
      expect(canonicalParams(sent)).to.deep.equal(canonicalParams({ model: "m", temperature: 0.2 }));
      if (path.length > 1) expect(canonicalParams(sent)).to.deep.equal(canonicalParams({ model: "m", temperature: 0.2, ...withPath(path.slice(0, -1), {}) }));
      expect(JSON.stringify(sent)).to.equal(before); // the client's own object is not changed
      const meaningful = { model: "m", ...withPath(path, Array.isArray(value) ? ["x"] : value === false ? true : { x: 1 }) };
      expect(canonicalParams(meaningful)).not.to.deep.equal(canonicalParams({ model: "m" }));
    });
  }

  it("the rule is explicit: an empty value under a name not in the table stays in the key", () => {
    expect(canonicalParams({ model: "m", logit_bias: {} })).to.deep.equal({ model: "m", logit_bias: {} });
    expect(canonicalParams({ model: "m", modalities: [] })).to.deep.equal({ model: "m", modalities: [] });
  });
});
