/**
 * Runs the reliability children (scripts in this folder, and mocha over spec files here) as
 * plain JavaScript. src/, test/helpers/ and this folder are transpiled once per test process
 * (TypeScript's transpileModule: what ts-node's transpile-only mode does) into a temp dir,
 * because each child under ts-node spends ~2.5 s of CPU compiling src/ again: a dozen of
 * them would blow the suite's time budget on a 2-core machine. The children resolve packages
 * through NODE_PATH, so they load the project's own node_modules (one @langchain/core).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { runChild, type ChildResult } from "../../helpers/child";

export const ROOT = path.join(__dirname, "../../..");
const SOURCES = ["src", "test/helpers", "test/reliability/scripts"];

let out: string | undefined;

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

/** The root of the transpiled tree (same layout as the project: `<root>/src/index.js`, ...). */
export function compiledRoot(): string {
  if (out) return out;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "vcr-rel-js-"));
  process.on("exit", () => fs.rmSync(root, { recursive: true, force: true }));
  const compilerOptions: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  for (const file of SOURCES.flatMap((s) => tsFiles(path.join(ROOT, s)))) {
    const js = ts.transpileModule(fs.readFileSync(file, "utf8"), { compilerOptions, fileName: file }).outputText;
    const target = path.join(root, path.relative(ROOT, file)).replace(/\.ts$/, ".js");
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, js);
  }
  out = root;
  return root;
}

/** Path of a compiled file, given its project-relative TypeScript path. */
export function compiled(relativeTs: string): string {
  return path.join(compiledRoot(), relativeTs.replace(/\.ts$/, ".js"));
}

/** The env every child gets: the parent's, with langchain-vcr's own settings cleared and quiet. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_PATH: path.join(ROOT, "node_modules"), LANGCHAIN_VCR_QUIET: "1", ...extra };
  for (const k of ["LANGCHAIN_VCR_MODE", "LANGCHAIN_VCR_TOOL_MODE", "CI"]) if (!(k in extra)) delete env[k];
  return env;
}

/** Runs `node [nodeArgs] <compiled script>` to completion (async: the parent's loopback fake keeps serving). */
export function runScript(script: string, env: Record<string, string>, nodeArgs: string[] = [], timeoutMs = 60000): Promise<ChildResult> {
  return runChild(process.execPath, [...nodeArgs, compiled(`test/reliability/scripts/${script}`)], { cwd: ROOT, env: childEnv(env), timeoutMs });
}

/** Starts a script and hands back the process (for tests that kill it). */
export function spawnScript(script: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [compiled(`test/reliability/scripts/${script}`)], { cwd: ROOT, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
}

/** Throws with the child's output unless it exited 0. */
export function ok(result: ChildResult): ChildResult {
  if (result.status !== 0) throw new Error(`child exited with ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  return result;
}
