/**
 * A small file written whole or not at all: a temporary file beside it, then a rename, so a
 * process reading it meanwhile (a main process summing its test processes' reports, a `prune`)
 * never reads half of it. The run's reports and notes (`runner/share.ts`, `install/jestUnplugged.ts`),
 * its ledgers (`runner/ledgerFiles.ts`) and the embeddings' file list (`install/embeddingsFiles.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Writes `text` to `file` (its directory made first); throws what the file system says, leaving no temporary file. */
export function replaceFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}
