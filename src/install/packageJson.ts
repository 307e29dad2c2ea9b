/** The file a package exports, read from its package.json as Node resolves a bare import of it. */
import * as fs from "node:fs";
import * as path from "node:path";

type Target = string | null | { [condition: string]: Target } | Target[];

/**
 * The file `pkgDir`'s package.json exports for `subpath` under `condition` ("import" or
 * "require"): `exports` as a string, a subpath map, or a condition map (nested conditions, "node"
 * and "default" too), else `main` for ".". Undefined when it exports nothing there.
 */
export function exportedFile(pkgDir: string, subpath: string, condition: "import" | "require"): string | undefined {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { exports?: Target; main?: string };
  const exp = pkg.exports;
  let entry: Target | undefined;
  if (exp === undefined || exp === null) entry = undefined;
  else if (typeof exp === "string" || Array.isArray(exp)) entry = subpath === "." ? exp : undefined;
  else if (Object.keys(exp).some((k) => k.startsWith("."))) entry = (exp as Record<string, Target>)[subpath];
  else entry = subpath === "." ? exp : undefined; // a condition map for "."
  const file = pick(entry, condition) ?? (exp === undefined && subpath === "." ? (pkg.main ?? "index.js") : undefined);
  return file === undefined ? undefined : path.join(pkgDir, file);
}

function pick(target: Target | undefined, condition: string): string | undefined {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) return target.map((t) => pick(t, condition)).find((f) => f !== undefined);
  if (!target) return undefined;
  // the first key, in the package's order, that is an active condition (as Node picks), going on past one that matches nothing inside
  for (const [k, v] of Object.entries(target)) {
    if (k !== condition && k !== "node" && k !== "default") continue;
    const file = pick(v, condition);
    if (file !== undefined) return file;
  }
  return undefined;
}
