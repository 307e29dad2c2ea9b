/**
 * Runs the reliability children (scripts in this folder, and mocha over spec files here) as
 * plain JavaScript. The scripts and the project files they import are transpiled once per
 * test process (TypeScript's transpileModule: what ts-node's transpile-only mode does) into a
 * temp dir, because each child under ts-node spends ~2.5 s of CPU compiling src/ again: a
 * dozen of them would blow the suite's time budget on a 2-core machine. The children resolve packages
 * through NODE_PATH, so they load the project's own node_modules (one @langchain/core).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";
import { runChild, type ChildResult } from "../../helpers/child";

export const ROOT = path.join(__dirname, "../../..");
const SCRIPTS = path.join(ROOT, "test/reliability/scripts");

let out: string | undefined;

/** The project file a relative `require` from `from` names (a .ts file, or a file as is, e.g. .json). */
function resolveLocal(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base + ".ts", path.join(base, "index.ts"), base];
  if (base.endsWith(".js")) candidates.unshift(base.slice(0, -3) + ".ts"); // `./x.js` written for ./x.ts
  return candidates.find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/**
 * The root of the transpiled tree (same layout as the project: `<root>/src/index.js`, ...):
 * every script of this folder and `src/mocha/index.ts`, and every project file they reach
 * through relative imports.
 */
export function compiledRoot(): string {
  if (out) return out;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "vcr-rel-js-"));
  process.on("exit", () => fs.rmSync(root, { recursive: true, force: true }));
  const compilerOptions: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const entries = fs
    .readdirSync(SCRIPTS)
    .filter((n) => n.endsWith(".ts"))
    .map((n) => path.join(SCRIPTS, n));
  const queue = [...entries, path.join(ROOT, "src/mocha/index.ts")];
  const done = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (done.has(file)) continue;
    done.add(file);
    const target = path.join(root, path.relative(ROOT, file)).replace(/\.ts$/, ".js");
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (!file.endsWith(".ts")) {
      fs.copyFileSync(file, target);
      continue;
    }
    const js = ts.transpileModule(fs.readFileSync(file, "utf8"), { compilerOptions, fileName: file }).outputText;
    fs.writeFileSync(target, js);
    for (const m of js.matchAll(/require\("(\.{1,2}\/[^"]*)"\)/g)) {
      const dep = resolveLocal(file, m[1]);
      if (dep) queue.push(dep);
    }
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
