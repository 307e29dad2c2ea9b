/** A main process's ledger record of a run that exited 0, as a runner writes it: the tests' way to put earlier runs on disk. */
import type { LedgerRecord } from "../../src/runner/ledgerFiles";

export function ledgerRecord(run: {
  runId: string;
  n: number;
  startedAt: string;
  partial: string[];
  specFiles: string[];
  used: string[];
  runner?: string;
}): LedgerRecord {
  return {
    ledgerVersion: 1,
    runId: run.runId,
    mainId: `${run.n}-m`,
    role: "main",
    pid: run.n,
    startedAt: run.startedAt,
    writtenAt: run.startedAt,
    exitCode: 0,
    partial: run.partial,
    specFiles: run.specFiles,
    used: run.used,
    ...(run.runner ? { runner: run.runner } : {}),
  };
}
