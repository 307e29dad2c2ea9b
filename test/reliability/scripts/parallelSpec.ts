/**
 * The body of the `mocha --parallel` spec files (parallel-N.spec.ts): participant N records
 * the overlapping workload into the shared FIXTURE_DIR, one test per surface.
 */
import { barrier, overlapEnv, workload, type Workload } from "./overlap";

export function participantSuite(p: number): void {
  describe(`participant ${p}`, () => {
    let w: Workload;
    before(async () => {
      const env = overlapEnv();
      w = workload(p, env.fakeUrl, env.dir);
      await barrier(env.barrierDir, `participant-${p}`, env.participants);
    });
    it("records chat", async () => {
      await w.chat();
    });
    it("records embeddings", async () => {
      await w.embeddings();
    });
    it("records tool calls", async () => {
      await w.tools();
    });
  });
}
