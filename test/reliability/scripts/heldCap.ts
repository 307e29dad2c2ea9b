/**
 * Held descriptors, bounded for the process (run with `node --expose-gc`): one cache keeps and
 * replays 70 fixture files (their last change a second back), a second cache (the module evaluated
 * again, as vitest with the package inlined does per test file) 10 more; then the first cache is
 * dropped and collected. Prints one JSON line: the descriptors open on each directory's files at
 * each step, and whether a descriptor may be held there at all.
 *
 * env: FIXTURE_DIR (required; two directories are made in it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ParsedFileCache } from "../../../src/store/parsedCache";
import { descriptorsCheck } from "../../../src/store/heldFiles";

const root = process.env.FIXTURE_DIR!;
const OLD = Date.now() / 1000 - 3600;

function files(dir: string, n: number): string[] {
  fs.mkdirSync(dir, { recursive: true });
  return Array.from({ length: n }, (_, i) => {
    const f = path.join(dir, `${i}.json`);
    fs.writeFileSync(f, "{}");
    fs.utimesSync(f, OLD, OLD);
    return f;
  });
}

function openOn(dir: string): number {
  return fs.readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir + path.sep);
    } catch {
      return false;
    }
  }).length;
}

/** Kept, then replayed twice (the first hit holds a descriptor where one may be). */
function replayAll(cache: ParsedFileCache<string>, list: string[]): void {
  for (const f of list) {
    cache.firstRead(f);
    cache.keep(f, cache.stat(f)!, () => f);
    cache.get(f, cache.stat(f)!);
    if (cache.held(f) === undefined) cache.get(f, cache.stat(f)!);
  }
}

async function main(): Promise<void> {
  const [a, b] = [path.join(root, "a"), path.join(root, "b")];
  const first = files(a, 70);
  const second = files(b, 10);
  await new Promise((r) => setTimeout(r, 1100)); // their last change a second back
  let one: ParsedFileCache<string> | undefined = new ParsedFileCache<string>();
  replayAll(one, first);
  const afterFirst = { a: openOn(a), b: openOn(b) };
  const two = new ParsedFileCache<string>();
  replayAll(two, second);
  const afterSecond = { a: openOn(a), b: openOn(b) };
  one = undefined;
  const gc = (globalThis as { gc?: () => void }).gc!;
  for (let i = 0; i < 10 && openOn(a) > 0; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20)); // finalizers run after a turn
  }
  const collected = { a: openOn(a), b: openOn(b) };
  replayAll(two, second); // room again
  const afterRoom = { a: openOn(a), b: openOn(b) };
  process.stdout.write(JSON.stringify({ holdable: descriptorsCheck(a), afterFirst, afterSecond, collected, afterRoom }) + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
