/**
 * Filler fixtures for the scale section: real chat fixtures (the real formatter and hash),
 * each a different question, written once into the largest directory; smaller directories
 * get hard links to a subset, so 111,010 directory entries cost 100,000 file writes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../../src/canonical/json";
import type { Fixture } from "../../src/store/fixture";
import { formatFixture } from "../../src/store/format";

/** Writes `count` fillers modelled on `template` (a recorded chat fixture) into `dir`; returns their file names. */
export function writeFillers(dir: string, template: Fixture, count: number): string[] {
  const names: string[] = [];
  const request = template.request as { messages: { role: string; content: string }[] };
  for (let i = 0; i < count; i++) {
    const req = { ...request, messages: [{ role: "user", content: `Filler question ${i}: what is ${i} squared?` }] };
    const hash = requestHash(template.kind, req);
    const fixture: Fixture = { ...template, hash, request: req };
    const name = `${hash}.json`;
    fs.writeFileSync(path.join(dir, name), formatFixture(fixture));
    names.push(name);
  }
  return names;
}

/** Hard-links `names` from `from` into `to`. */
export function linkFiles(from: string, to: string, names: readonly string[]): void {
  for (const n of names) fs.linkSync(path.join(from, n), path.join(to, n));
}
