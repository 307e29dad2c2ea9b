/**
 * Two-process concurrency child: records the overlapping workload as participant
 * PARTICIPANT (after the barrier) in the mode LANGCHAIN_VCR_MODE gives, and prints one
 * JSON line with its stats.
 */
import { barrier, overlapEnv, workload } from "./overlap";

async function main(): Promise<void> {
  const env = overlapEnv();
  const p = Number(process.env.PARTICIPANT ?? 0);
  const w = workload(p, env.fakeUrl, env.dir);
  await barrier(env.barrierDir, `process-${p}`, env.participants);
  await Promise.all([w.chat(), w.embeddings(), w.tools()]);
  process.stdout.write(JSON.stringify({ participant: p, mode: w.vcr.mode(), stats: w.vcr.stats(), toolRuns: w.toolRuns() }) + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
