/**
 * One recipe's consumer project in a temporary directory: its documented files written verbatim,
 * its documented `npm install` line run against the packed tarball of this package (today's
 * versions of everything else from the npm registry, through the shared npm cache), and its
 * documented test command run in a child process, with a timeout that kills the whole process group.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Recipe } from "./blocks";
import { isVcrEnv } from "../../src/internalEnv";

export interface RunResult {
  status: number | null;
  output: string;
  timedOut: boolean;
}

/** `sh -c command` in its own process group; on timeout the group is killed, so no runner worker outlives it. */
export function runShell(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    let timedOut = false;
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, options.timeoutMs);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output, timedOut });
    });
  });
}

/** Writes the recipe's files; a documented package.json is merged into a minimal private one. */
export function writeProject(dir: string, recipe: Recipe): void {
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `recipe-${recipe.id}`, private: true }, null, 2) + "\n");
  for (const [file, content] of recipe.files) {
    const target = path.join(dir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (file === "package.json") {
      const base = JSON.parse(fs.readFileSync(target, "utf8"));
      fs.writeFileSync(target, JSON.stringify({ ...base, ...JSON.parse(content) }, null, 2) + "\n");
    } else {
      fs.writeFileSync(target, content);
    }
  }
}

/** Every fixture in `dir`: file name → its kind and bytes. */
export function fixtures(dir: string): Map<string, { kind: string; text: string }> {
  const out = new Map<string, { kind: string; text: string }>();
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    out.set(name, { kind: JSON.parse(text).kind, text });
  }
  return out;
}

export function countKinds(found: Map<string, { kind: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { kind } of found.values()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** The environment of a user's shell with no langchain-vcr or CI setting, pointed at the loopback fake. */
export function userEnv(openaiBaseURL: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (isVcrEnv(k) || /^(OPENAI_|CI$|NODE_OPTIONS$|TS_NODE_|MOCHA_|VITEST|JEST_|npm_)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, OPENAI_BASE_URL: openaiBaseURL, OPENAI_API_KEY: "sk-recipe-fake-key-for-the-loopback-provider", ...extra };
}
