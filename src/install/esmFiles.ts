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

const typeOfDir = new Map<string, string | undefined>();

export function isEsmFile(file: unknown): boolean {
  if (typeof file !== "string" || !path.isAbsolute(file)) return false;
  const ext = path.extname(file);
  if (ext === ".mjs" || ext === ".mts") return true;
  if (ext === ".cjs" || ext === ".cts") return false;
  return packageType(path.dirname(file)) === "module";
}

/** The `type` of the package.json nearest to `dir` (undefined: none, or no type). */
function packageType(dir: string): string | undefined {
  if (typeOfDir.has(dir)) return typeOfDir.get(dir);
  let type: string | undefined;
  try {
    type = (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { type?: string }).type ?? "commonjs";
  } catch {
    const up = path.dirname(dir);
    type = up === dir ? undefined : packageType(up);
  }
  typeOfDir.set(dir, type);
  return type;
}
