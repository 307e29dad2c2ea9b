/**
 * The command a fix line gives for running the whole suite again to re-record: `npm test` (`yarn
 * test`, `pnpm test` when that package manager runs this) when the project has a test script (npm's
 * placeholder script does not count), else a description, since a copy-pasted `npm test` would only
 * print "Missing script".
 */
import { rerecordEnv } from "./commandEnv";
import { packageManager } from "./packageManager";
import { nearestPackageJson } from "../nearestPackage";

const known = new Map<string, boolean>();

export function suiteRerecordCommand(cwd: string = process.cwd()): string {
  const env = rerecordEnv(false); // the run's NODE_OPTIONS go with it: a test script that does not set them would run without
  return hasTestScript(cwd) ? `${env} ${packageManager()} test` : `${env} <your test command>`;
}

/** Whether the nearest package.json at or above `cwd` (the one `npm test` runs) has a real test script. */
function hasTestScript(cwd: string): boolean {
  let has = known.get(cwd);
  if (has === undefined) known.set(cwd, (has = readTestScript(cwd)));
  return has;
}

function readTestScript(cwd: string): boolean {
  const found = nearestPackageJson(cwd);
  const script = (found?.json?.scripts as { test?: unknown } | undefined)?.test; // a broken package.json: npm would refuse it too
  return typeof script === "string" && script.trim() !== "" && !/no test specified/.test(script);
}
