/**
 * Crash child: records large tool fixtures one after another (record_or_replay) and prints
 * `recorded <i>` after each, until it is killed. With CRASH_POINT it kills itself (SIGKILL)
 * at a chosen moment of the write of fixture CRASH_AT, to make the worst cases certain:
 * - `mid-temp`:    half of the temp file written;
 * - `before-link`: the temp file complete, the fixture not yet linked;
 * - `after-link`:  the fixture linked, its temp file not yet removed.
 * Without CRASH_POINT the parent kills it at a moment of its choosing.
 *
 * env: FIXTURE_DIR, SIZE (characters per result), COUNT (default 1000), CRASH_POINT, CRASH_AT.
 */
import type * as fs from "node:fs";
import nodeFs from "node:fs"; // the module object itself: patching it is seen by the store
import { Vcr } from "../../../src/index";
import { TEMP_PREFIX } from "../../../src/store/atomic";
import { bigTool } from "./bigTool";

const size = Number(process.env.SIZE ?? 1_000_000);
const count = Number(process.env.COUNT ?? 1000);
const point = process.env.CRASH_POINT ?? "";
const crashAt = Number(process.env.CRASH_AT ?? -1);
let current = -1;

function die(): never {
  process.kill(process.pid, "SIGKILL");
  for (;;); // SIGKILL to self is delivered before kill() returns; never run on
}

const real = { writeFileSync: nodeFs.writeFileSync, linkSync: nodeFs.linkSync };
const crashing = (file: fs.PathLike) => current === crashAt && String(file).includes(TEMP_PREFIX);
if (point === "mid-temp") {
  (nodeFs as { writeFileSync: unknown }).writeFileSync = (file: fs.PathOrFileDescriptor, data: string, options?: fs.WriteFileOptions) => {
    if (!crashing(file as fs.PathLike)) return real.writeFileSync(file, data, options);
    real.writeFileSync(file, data.slice(0, Math.floor(data.length / 2)), options);
    die();
  };
} else if (point === "before-link" || point === "after-link") {
  (nodeFs as { linkSync: unknown }).linkSync = (from: fs.PathLike, to: fs.PathLike) => {
    if (!crashing(from)) return real.linkSync(from, to);
    if (point === "after-link") real.linkSync(from, to);
    die();
  };
}

async function main(): Promise<void> {
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "record_or_replay", sizeWarningBytes: 0 });
  const big = bigTool(vcr, size);
  for (let i = 0; i < count; i++) {
    current = i;
    await big.invoke({ i });
    process.stdout.write(`recorded ${i}\n`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
