/**
 * Whether a file Node loads is an ES module: by its extension, else by the `type` of the nearest
 * package.json (as Node decides). `install()` in a CommonJS setup file cannot see that the test
 * files are ES modules, whose `import` of an integration gets its ESM copy: so the known
 * integrations' ESM entries are reached too when the main module is one (node:test runs each test
 * file as its process's main module) or, under mocha, once its spec files are loaded. Before,
 * a CommonJS setup file with `.mjs` test files left OpenAIEmbeddings live under replay_only (mocha:
 * 2 live requests, the summary "8 replayed, 0 missed").
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { nearestPackageJson } from "../nearestPackage";

const typeOfDir = new Map<string, string | undefined>();

export function isEsmFile(file: unknown): boolean {
  if (typeof file !== "string" || !path.isAbsolute(file)) return false;
  const ext = path.extname(file);
  if (ext === ".mjs" || ext === ".mts") return true;
  if (ext === ".cjs" || ext === ".cts") return false;
  const type = packageType(path.dirname(file));
  return type === "module" || (type === undefined && ext === ".js" && hasModuleSyntax(file));
}

/**
 * A `.js` file of a package.json with no `type`: Node (20.19+, 22) runs it as an ES module when it uses
 * `import`/`export` statements. A line that starts with one is taken as such (before, such a
 * `.js` test file beside a CommonJS setup file left OpenAIEmbeddings live).
 */
function hasModuleSyntax(file: string): boolean {
  try {
    return /^\s*(import\s*[\w*{"']|export\s)/m.test(fs.readFileSync(file, "utf8"));
  } catch {
    return false;
  }
}

/** The `type` of the package.json nearest to `dir` (undefined: none, or one with no type). */
function packageType(dir: string): string | undefined {
  if (!typeOfDir.has(dir)) typeOfDir.set(dir, nearestPackageJson(dir)?.json?.type as string | undefined);
  return typeOfDir.get(dir);
}
