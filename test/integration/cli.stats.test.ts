/** `langchain-vcr stats` on hostile fixture contents. */
import { expect } from "chai";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../../src/canonical/json";
import { collectStats } from "../../src/cli/stats";
import { formatFixture } from "../../src/store/format";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("cli: stats", () => {
  let dir: string;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => removeTmpDirs());

  it('stats of a fixture whose model is "__proto__" counts it and pollutes nothing', () => {
    const request = { model: "__proto__", messages: [{ role: "user", content: "x" }] };
    const hash = requestHash("chat", request);
    fs.writeFileSync(
      path.join(dir, `${hash}.json`),
      formatFixture({ schemaVersion: SCHEMA_VERSION, kind: "chat", hash, recordedAt: "x", request, response: { generations: [] } }),
    );
    const stats = collectStats(dir, path.join(dir, "no-ledgers"), dir);
    expect(stats.byModel["__proto__"].count).to.equal(1);
    expect((Object.prototype as Record<string, unknown>).count).to.equal(undefined);
  });
});
