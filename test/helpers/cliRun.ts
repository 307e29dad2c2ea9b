/** Runs the built `langchain-vcr` CLI in a child process, as users run it (no LANGCHAIN_VCR_* from this process leaks in). */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { builtBin, ROOT } from "./built";
import { isVcrEnv } from "../../src/internalEnv";

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export function cli(args: string[], cwd: string = ROOT, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const bin = builtBin();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: "true", TS_NODE_PROJECT: path.join(ROOT, "tsconfig.json"), ...env };
  for (const k of Object.keys(childEnv)) if (isVcrEnv(k) && !(k in env)) delete childEnv[k];
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env: childEnv, timeout: 60000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
