/**
 * The package.json nearest to a directory, at or above it, as Node and npm find it: for the
 * module type of a file (`install/esmFiles.ts`) and the project's test script
 * (`diagnose/suiteCommand.ts`). `json` is undefined when that file cannot be parsed.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export function nearestPackageJson(dir: string): { file: string; json: Record<string, unknown> | undefined } | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const file = path.join(d, "package.json");
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      if (path.dirname(d) === d) return undefined;
      continue;
    }
    try {
      return { file, json: JSON.parse(text) as Record<string, unknown> };
    } catch {
      return { file, json: undefined };
    }
  }
}
