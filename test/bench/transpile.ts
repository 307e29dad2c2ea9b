/**
 * Transpiles src/ and the scale child to CommonJS JavaScript in a temp directory (the same
 * per-file transpile ts-node does, done once ahead of time), so child processes start like
 * a user's process with the built package, not paying ts-node's compiler at every start.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "../..");

/** Writes `<out>/src/**.js` and `<out>/test/bench/scaleChild.js`; returns the child's path. */
export function transpileForChild(out: string): string {
  const files = [...walk(path.join(ROOT, "src")), path.join(ROOT, "test/bench/scaleChild.ts")];
  for (const file of files) {
    const js = ts.transpileModule(fs.readFileSync(file, "utf8"), {
      fileName: file,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
    const dest = path.join(out, path.relative(ROOT, file)).replace(/\.ts$/, ".js");
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, js);
  }
  return path.join(out, "test/bench/scaleChild.js");
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [p] : [];
  });
}
