/** `new Vcr(options)`'s defaults: every one comes from the exported DEFAULTS constant, which no caller can change for everyone. */
import { expect } from "chai";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULTS, Vcr, VcrConfigError } from "../../src/index";
import { resolveOptions } from "../../src/options";

describe("options: validation", () => {
  const dir = path.join(os.tmpdir(), "vcr-options-never-created");

  it("allowSecretPatterns that is not an array of names is a VcrConfigError", () => {
    expect(() => new Vcr({ dir, allowSecretPatterns: "bearer_token" as never })).to.throw(VcrConfigError, "must be an array");
    expect(() => new Vcr({ dir, allowSecretPatterns: [1] as never })).to.throw(VcrConfigError, "must be an array");
  });

  it("a dir with a NUL character is a VcrConfigError at construction (it used to construct)", () => {
    expect(() => new Vcr({ dir: "a\0b" })).to.throw(VcrConfigError, /options\.dir "a\\u0000b" contains a NUL character[\s\S]*Fix it:/);
  });
});

describe("options: DEFAULTS", () => {
  it("an empty options object resolves to DEFAULTS' values, as copies", () => {
    const resolved = resolveOptions({});
    expect(resolved).to.deep.equal({
      dir: path.resolve(process.cwd(), DEFAULTS.dir),
      relativeTo: process.cwd(), // the relative default's: what it was resolved against
      mode: undefined,
      toolMode: undefined,
      normalizers: DEFAULTS.normalizers,
      redactors: DEFAULTS.redactors,
      sizeWarningBytes: DEFAULTS.sizeWarningBytes,
      allowSecretPatterns: new Set(DEFAULTS.allowSecretPatterns),
    });
    expect(resolveOptions({ dir: path.join(process.cwd(), "abs") }).relativeTo, "an absolute dir").to.equal(undefined);
    resolved.redactors.push((f) => f); // one Vcr's list is its own
    expect(resolveOptions({}).redactors).to.deep.equal([]);
  });

  it("DEFAULTS and its lists are frozen: a user cannot add a redactor or normalizer to every Vcr through it", () => {
    expect(() => (DEFAULTS.redactors as unknown[]).push(() => undefined)).to.throw(TypeError);
    expect(() => (DEFAULTS.normalizers as unknown[]).push(() => undefined)).to.throw(TypeError);
    expect(() => (DEFAULTS.allowSecretPatterns as string[]).push("bearer_token")).to.throw(TypeError);
    expect(() => ((DEFAULTS as { sizeWarningBytes: number }).sizeWarningBytes = 1)).to.throw(TypeError);
    expect(resolveOptions({}).sizeWarningBytes).to.equal(262144);
  });
});
