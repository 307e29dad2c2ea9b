/**
 * vcr.install() reaches an Embeddings class that a CommonJS module exports only through an
 * instance (`export const embeddings = new AppEmbeddings()`): it records and replays, and
 * under replay_only with no fixture it is a VcrMissError without running the class's method.
 */
import { expect } from "chai";
import { Vcr } from "../../src/index";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("vcr.install(): an embeddings instance exported by an app module", () => {
  afterEach(() => removeTmpDirs());

  it("replay_only with no fixture: VcrMissError, the method ran 0 times; recorded once, then replayed with 0 runs", async () => {
    const dir = tmpDir();
    let uninstall = new Vcr({ dir, mode: "replay_only" }).install();
    // required after install(): the module's exports are seen as require returns them

    const { embeddings } = require("./scripts/appEmbeddingsInstance") as typeof import("./scripts/appEmbeddingsInstance");
    try {
      let error: unknown;
      await embeddings.embedQuery("hello").catch((e: unknown) => (error = e));
      expect((error as Error | undefined)?.name, String(error)).to.equal("VcrMissError");
      expect(embeddings.runs).to.equal(0);
    } finally {
      uninstall();
    }
    uninstall = new Vcr({ dir, mode: "record_or_replay" }).install();
    try {
      expect(await embeddings.embedQuery("hello")).to.deep.equal([5]);
      expect(embeddings.runs).to.equal(1);
      expect(fixtureFiles(dir)).to.have.length(1);
    } finally {
      uninstall();
    }
    uninstall = new Vcr({ dir, mode: "replay_only" }).install();
    try {
      expect(await embeddings.embedQuery("hello")).to.deep.equal([5]);
      expect(embeddings.runs).to.equal(1);
    } finally {
      uninstall();
    }
  });
});
