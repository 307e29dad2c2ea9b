import { expect } from "chai";
import { modeInForce } from "../../src/runner/summary";
import { withEnv } from "../helpers/env";

describe("modeInForce: the mode the summary line names, and where it came from", () => {
  it("the run's mode alone, or none seen: the run's mode and its source", () => {
    withEnv({ LANGCHAIN_VCR_MODE: undefined, CI: "" }, () => {
      expect(modeInForce(new Set())).to.deep.equal({ mode: "record_or_replay", source: "default" });
      expect(modeInForce(new Set(["record_or_replay"]))).to.deep.equal({ mode: "record_or_replay", source: "default" });
    });
  });

  it("a mode set in code beside the run's: both modes, and what the run's default or env says", () => {
    const seen = new Set(["record_always", "record_or_replay"]);
    withEnv({ LANGCHAIN_VCR_MODE: undefined, CI: "" }, () =>
      expect(modeInForce(seen)).to.deep.equal({ mode: "record_always + record_or_replay", source: "set in code; the default is record_or_replay" }),
    );
    withEnv({ LANGCHAIN_VCR_MODE: undefined, CI: "true" }, () =>
      expect(modeInForce(new Set(["record_always"]))).to.deep.equal({ mode: "record_always", source: "set in code; the default (CI is set) is replay_only" }),
    );
    withEnv({ LANGCHAIN_VCR_MODE: "bypass", CI: "" }, () =>
      expect(modeInForce(new Set(["record_always"]))).to.deep.equal({ mode: "record_always", source: "set in code; env LANGCHAIN_VCR_MODE says bypass" }),
    );
  });
});
