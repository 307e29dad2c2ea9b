/**
 * The command a fix line gives for running the whole suite again to re-record: `npm test` when
 * the project has a test script (npm's placeholder script does not count), else a description,
 * since a copy-pasted `npm test` would only print "Missing script".
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { MODE_ENV } from "../modes";

const known = new Map<string, boolean>();

export function suiteRerecordCommand(cwd: string = process.cwd()): string {
  const env = `${MODE_ENV}=record_or_replay`;
  return hasTestScript(cwd) ? `${env} npm test` : `${env} <your test command>`;
}

/** Whether the nearest package.json at or above `cwd` (the one `npm test` runs) has a real test script. */
function hasTestScript(cwd: string): boolean {
  let has = known.get(cwd);
  if (has === undefined) known.set(cwd, (has = readTestScript(cwd)));
  return has;
}

function readTestScript(cwd: string): boolean {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    let text: string | undefined;
    try {
      text = fs.readFileSync(path.join(dir, "package.json"), "utf8");
    } catch {
      if (path.dirname(dir) === dir) return false;
      continue;
    }
    try {
      const script = (JSON.parse(text) as { scripts?: { test?: unknown } }).scripts?.test;
      return typeof script === "string" && script.trim() !== "" && !/no test specified/.test(script);
    } catch {
      return false; // npm would refuse a broken package.json too
    }
  }
}
