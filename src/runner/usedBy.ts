/**
 * Which tests used each fixture file, as the usage ledger keeps it (`show`'s "used by:",
 * `stats --by-test`): fixture file → test file → the titles of that file's tests that used it.
 * The test file tells apart two tests of the same title in different files. It is "" where the
 * runner named no file, and in ledgers written before test files were kept, whose lists are
 * titles only (read as such).
 */
import { defineMember } from "../canonical/json";

export type UsedBy = Map<string, Map<string, Set<string>>>;
/** `UsedBy` as JSON, in a ledger or a test process's report. */
export type UsedByRecord = Record<string, Record<string, string[]>>;

const same = (p: string) => p;

export function addUse(usedBy: UsedBy, fixture: string, specFile: string, title: string): void {
  let files = usedBy.get(fixture);
  if (!files) usedBy.set(fixture, (files = new Map()));
  let titles = files.get(specFile);
  if (!titles) files.set(specFile, (titles = new Set()));
  titles.add(title);
}

/** Adds another map's uses; `fixturePath` and `specPath` map its paths (made relative, resolved). */
export function addUses(usedBy: UsedBy, other: UsedBy, fixturePath: (p: string) => string = same, specPath: (p: string) => string = same): void {
  for (const [fixture, files] of other) {
    const f = fixturePath(fixture);
    for (const [spec, titles] of files) for (const t of titles) addUse(usedBy, f, spec === "" ? "" : specPath(spec), t);
  }
}

/**
 * Reads a record written by any version: a fixture's entry is test file → titles, or (the
 * first ledgers) a list of titles with no file. Anything else in it is skipped: a ledger is
 * advisory, and a damaged entry must not stop `show` or `stats`. Added to `out` when given.
 */
export function fromRecord(
  record: unknown,
  fixturePath: (p: string) => string = same,
  specPath: (p: string) => string = same,
  out: UsedBy = new Map(),
): UsedBy {
  if (!record || typeof record !== "object") return out;
  for (const [fixture, entry] of Object.entries(record as Record<string, unknown>)) {
    const f = fixturePath(fixture);
    if (Array.isArray(entry)) {
      for (const t of entry) if (typeof t === "string") addUse(out, f, "", t);
    } else if (entry && typeof entry === "object") {
      for (const [spec, titles] of Object.entries(entry as Record<string, unknown>)) {
        if (Array.isArray(titles)) for (const t of titles) if (typeof t === "string") addUse(out, f, spec === "" ? "" : specPath(spec), t);
      }
    }
  }
  return out;
}

/** As JSON, every level sorted; `fixturePath` and `specPath` map the paths (made relative to the root). */
export function toRecord(usedBy: UsedBy, fixturePath: (p: string) => string = same, specPath: (p: string) => string = same): UsedByRecord {
  let merged = usedBy;
  if (fixturePath !== same || specPath !== same) addUses((merged = new Map()), usedBy, fixturePath, specPath); // two paths may map to one
  const out: UsedByRecord = {};
  for (const fixture of [...merged.keys()].sort()) {
    const files: Record<string, string[]> = {};
    const byFile = merged.get(fixture)!;
    for (const spec of [...byFile.keys()].sort()) defineMember(files, spec, [...byFile.get(spec)!].sort());
    defineMember(out, fixture, files);
  }
  return out;
}

/** The tests (test file, title) that used `fixture`, by file then title. */
export function testsUsing(usedBy: UsedBy, fixture: string): { specFile: string; title: string }[] {
  const files = usedBy.get(fixture);
  if (!files) return [];
  return [...files.keys()].sort().flatMap((specFile) => [...files.get(specFile)!].sort().map((title) => ({ specFile, title })));
}

/** The tests that used any fixture, by test file: test file → their titles (what a run's tests did, whatever the fixture). */
export function testsByFile(usedBy: UsedBy): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const bySpec of usedBy.values())
    for (const [spec, titles] of bySpec) for (const t of titles) (out.get(spec) ?? out.set(spec, new Set()).get(spec)!).add(t);
  return out;
}
