/**
 * Where a project has a package installed, for `install()` to load an integration that no test
 * has handed it: as langchain-vcr resolves it, as the working directory resolves it (a strict
 * layout such as pnpm's with `hoist=false` lets a package resolve only what it declares, and
 * langchain-vcr declares no integration), and every copy in a pnpm store above the working
 * directory (a workspace whose packages use different versions has one copy per version there).
 * A copy that no one imports costs a load, never a wrong answer: its classes are only wrapped.
 */
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";

export function packageDirs(name: string, cwd: string = process.cwd()): string[] {
  const found = new Set<string>();
  const add = (dir: string | undefined) => {
    if (dir === undefined) return;
    try {
      found.add(fs.realpathSync(dir));
    } catch {
      // gone
    }
  };
  add(resolvedDir(name, require));
  add(resolvedDir(name, createRequire(path.join(cwd, "package.json"))));
  for (const dir of pnpmStoreCopies(name, cwd)) add(dir);
  return [...found];
}

function resolvedDir(name: string, req: NodeJS.Require): string | undefined {
  try {
    return path.dirname(req.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** `node_modules/.pnpm/<name with + for />@<version>.../node_modules/<name>` in the nearest store at or above `cwd`. */
function pnpmStoreCopies(name: string, cwd: string): string[] {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const store = path.join(dir, "node_modules", ".pnpm");
    let entries: string[] | undefined;
    try {
      entries = fs.readdirSync(store);
    } catch {
      entries = undefined;
    }
    if (entries) {
      const prefix = name.replace("/", "+") + "@";
      return entries
        .filter((e) => e.startsWith(prefix))
        .map((e) => path.join(store, e, "node_modules", name))
        .filter((d) => fs.existsSync(path.join(d, "package.json")));
    }
    if (path.dirname(dir) === dir) return [];
  }
}

/** The file a package's package.json exports for `subpath` under `condition` ("import" or "require"). */
export function exportedFile(pkgDir: string, subpath: string, condition: "import" | "require"): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as {
    exports?: Record<string, Record<string, string | { default?: string }> | string>;
    main?: string;
  };
  const entry = pkg.exports?.[subpath];
  const target = typeof entry === "object" ? entry[condition] : entry;
  const file = typeof target === "string" ? target : target?.default;
  if (!file) {
    if (condition === "require" && subpath === "." && pkg.main) return path.join(pkgDir, pkg.main);
    throw new Error(`${pkgDir} exports no ${condition === "import" ? "ESM" : "CommonJS"} file for ${subpath}`);
  }
  return path.join(pkgDir, file);
}
