/**
 * Whether a test file focuses tests with `.only`. vitest and jest report the tests that
 * `.only` left out exactly like tests marked `.skip` (vitest: mode "skip"; jest: "pending"),
 * so the reporters read the file's source instead. A `.only` in a comment or a string also
 * counts: a run wrongly called partial costs one `prune` refusal, a run wrongly called
 * complete could delete fixtures.
 */
import * as fs from "node:fs";

const ONLY = /\b(?:it|test|describe|suite|context)(?:\.(?:concurrent|sequential|skipIf\([^)]*\)|runIf\([^)]*\)|each))*\.only\b|\bf(?:it|describe|test)\s*[(.]/;

export function sourceUsesOnly(source: string): boolean {
  return ONLY.test(source);
}

/** The files among `files` that use `.only` (unreadable files are left out). */
export function filesUsingOnly(files: Iterable<string>): string[] {
  const out: string[] = [];
  for (const f of files) {
    try {
      if (sourceUsesOnly(fs.readFileSync(f, "utf8"))) out.push(f);
    } catch {
      // a file that cannot be read was not run from this path either
    }
  }
  return out;
}
