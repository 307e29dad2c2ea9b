/** A path as a user would type it from `base`: relative when inside it, else as it is. */
import * as path from "node:path";

export function pathFrom(base: string, file: string): string {
  const rel = path.relative(base, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}
