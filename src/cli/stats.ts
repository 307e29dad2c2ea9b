/**
 * `langchain-vcr stats [dir] [--json]`: counts and bytes by kind and by model, the largest
 * fixtures, and how many fixtures the last run did not use. One read and one parse per
 * file (the shared reader, src/store/reader.ts) (10,000 small fixtures take well under a second).
 */
import { flagWords, type ParsedArgs } from "./args";
import { listFixtures, dirArgOf, resolveDir } from "./fixtureDir";
import { display, formatBytes, table, type Io } from "./io";
import { cliLedgers } from "./ledgers";
import { SCHEMA_VERSION } from "../store/fixture";
import { readFixtureFile } from "../store/reader";
import { fixturesByTest, NO_LEDGER } from "./usedBy";
import { ledgerVerdicts, suitesSharing, type LedgerSource } from "../runner/otherSuites";
import { answeringModel } from "../kinds/model";

export const statsSpec = { booleans: ["json", "by-test"], strings: ["ledger-dir"] } as const;
const LARGEST = 5;

interface Tally {
  count: number;
  bytes: number;
}

export interface FixtureStats {
  dir: string;
  count: number;
  bytes: number;
  /** Files named like fixtures that cannot be read or whose envelope is damaged (see `langchain-vcr validate`). */
  unreadable: number;
  /** Fixtures of an older schema version (never read until `langchain-vcr migrate`). */
  older: number;
  byKind: Record<string, Tally>;
  byModel: Record<string, Tally>;
  largest: { file: string; bytes: number; kind: string; model?: string }[];
  /** From the last run's ledgers; null when there is none. */
  unused: {
    count: number;
    runId: string;
    startedAt: string;
    complete: boolean;
    reasons: string[];
    /** Fixtures the last run did not use and the last run of another suite sharing the directory did (not counted in `count`: prune keeps them). */
    otherSuites: number;
    /** Another suite sharing the directory ran partially last: prune refuses while anything is unused. */
    otherSuitePartial: boolean;
  } | null;
  /**
   * With `--by-test`: test file (relative to the project root; "" where the runner named none) →
   * test title → the fixtures in `dir` it used in the last run, and in the last run of each other suite sharing `dir` (null: no ledger).
   */
  byTest?: Record<string, Record<string, string[]>> | null;
  /** With `--by-test`: how many suites' last runs `byTest` joins (the last run, and those of the other suites sharing the directory). */
  byTestSuites?: number;
  /** With `--by-test`: fixtures the last run used outside any test (a test file's top level, a hook), which no test of `byTest` names. */
  byTestOutside?: string[];
}

/** `command`: the command line that asked, for a missing directory's hint. */
export function collectStats(
  dir: string,
  ledgerDir: string,
  cwd: string,
  byTest = false,
  command = "stats",
  others: readonly LedgerSource[] = [],
): FixtureStats {
  const files = listFixtures(dir, command);
  // null-prototype tallies: kinds and model names come from fixture files (a "__proto__" model must not pollute)
  const s: FixtureStats = {
    dir,
    count: 0,
    bytes: 0,
    unreadable: 0,
    older: 0,
    byKind: Object.create(null),
    byModel: Object.create(null),
    largest: [],
    unused: null,
  };
  const sized: FixtureStats["largest"] = [];
  for (const file of files) {
    const read = readFixtureFile(file);
    if (read.text === undefined) {
      s.unreadable++;
      continue;
    }
    const f = read.fixture;
    if (!f)
      s.unreadable++; // damaged: counted under "(unreadable)"; validate says what is wrong
    else if (f.schemaVersion < SCHEMA_VERSION) s.older++;
    const kind = f ? f.kind : "(unreadable)";
    const model = f && isRecord(f.request) ? answeringModel(f.request) : undefined;
    s.count++;
    s.bytes += read.bytes;
    add(s.byKind, kind, read.bytes);
    add(s.byModel, model ?? (kind === "tool" ? "(tool)" : "(no model)"), read.bytes);
    sized.push({ file, bytes: read.bytes, kind, model });
  }
  s.largest = sized.sort((a, b) => b.bytes - a.bytes || (a.file < b.file ? -1 : 1)).slice(0, LARGEST);
  const verdicts = ledgerVerdicts(ledgerDir, cwd, others, dir);
  const verdict = verdicts?.last;
  const sharing = verdicts ? suitesSharing(verdicts, dir).map((o) => o.run) : [];
  if (byTest) {
    const inDir = new Set(files);
    const inThisDir = (tests: Map<string, string[]>) =>
      Object.fromEntries([...tests].map(([t, fs]) => [t, fs.filter((f) => inDir.has(f))] as const).filter(([, fs]) => fs.length > 0));
    s.byTest = verdict
      ? Object.fromEntries(
          [...fixturesByTest(verdict, ...sharing)].map(([spec, tests]) => [spec, inThisDir(tests)] as const).filter(([, t]) => Object.keys(t).length > 0),
        )
      : null;
    s.byTestSuites = verdict ? 1 + sharing.length : 0;
    const named = new Set(Object.values(s.byTest ?? {}).flatMap((tests) => Object.values(tests).flat()));
    // only from a ledger that names tests at all (langchain-vcr 0.2.0's named none)
    s.byTestOutside = verdict && verdict.usedBy.size > 0 ? files.filter((f) => verdict.used.has(f) && !named.has(f)) : [];
  }
  if (verdicts && verdict) {
    const notLast = files.filter((f) => !verdict.used.has(f));
    const others = notLast.filter((f) => sharing.some((o) => o.used.has(f))).length;
    s.unused = {
      count: notLast.length - others,
      otherSuites: others,
      otherSuitePartial: sharing.some((o) => !o.complete),
      runId: verdict.runId,
      startedAt: verdict.startedAt,
      complete: verdict.complete,
      reasons: verdict.reasons,
    };
  }
  return s;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function add(map: Record<string, Tally>, key: string, bytes: number): void {
  const t = (map[key] ??= { count: 0, bytes: 0 });
  t.count++;
  t.bytes += bytes;
}

export async function statsCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = resolveDir(io, dirArgOf(args, "stats"));
  const { ledgerDir, root, others } = cliLedgers(args, io);
  const s = collectStats(dir, ledgerDir, root, args.flags["by-test"] === true, `stats${flagWords(args)}`, others);
  if (args.flags.json) {
    io.out(JSON.stringify(s, null, 2) + "\n");
    return 0;
  }
  const rows = (m: Record<string, Tally>) =>
    Object.entries(m)
      .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
      .map(([k, t]) => [k, String(t.count), formatBytes(t.bytes)]);
  const lines = [
    `fixtures in ${display(io, dir)}: ${s.count} file(s), ${formatBytes(s.bytes)}` +
      (s.unreadable ? ` (${s.unreadable} unreadable: run langchain-vcr validate)` : "") +
      (s.older ? ` (${s.older} of an older schema version, never read: run langchain-vcr migrate)` : ""),
  ];
  if (s.count > 0) {
    lines.push("by kind:", table(rows(s.byKind)), "by model:", table(rows(s.byModel)), `largest:`);
    lines.push(table(s.largest.map((l) => [formatBytes(l.bytes), display(io, l.file), l.kind + (l.model ? ` ${l.model}` : "")])));
  }
  if (!s.unused) lines.push(`unused since the last run: unknown (${NO_LEDGER})`);
  else if (s.unused.complete) {
    const others =
      (s.unused.otherSuites ? `; ${s.unused.otherSuites} more used by another suite's last run` : "") +
      (s.unused.otherSuitePartial && s.unused.count > 0 ? "; another suite using it ran partially last, so prune refuses" : "");
    lines.push(`unused since the last run: ${s.unused.count} (run ${s.unused.runId}, started ${s.unused.startedAt}, complete${others})`);
  } else {
    // a partial run's unused fixtures include those of the tests it did not run: no count of unused ones
    const why = `${s.unused.reasons[0]}${s.unused.reasons.length > 1 ? ` (+${s.unused.reasons.length - 1} more)` : ""}`;
    lines.push(
      `unused since the last run: unknown (run ${s.unused.runId}, started ${s.unused.startedAt}, was partial: ${why}; ` +
        `${s.unused.count} fixture(s) it did not use may belong to tests it did not run)`,
    );
  }
  if (s.byTest === null) lines.push(`by test: unknown (${NO_LEDGER})`);
  else if (s.byTest) {
    const more = (s.byTestSuites ?? 1) - 1;
    lines.push(more ? `by test (last run, and the last run of ${more} other suite(s) sharing this directory):` : "by test (last run):");
    for (const [spec, tests] of Object.entries(s.byTest)) {
      lines.push(`  ${spec || "(no test file named: a ledger of langchain-vcr 0.2.0, or a runner that gave none)"}`);
      for (const [t, fs] of Object.entries(tests)) lines.push(`    ${t}: ${fs.length} fixture(s)`, ...fs.map((f) => `      ${display(io, f)}`));
    }
    const outside = s.byTestOutside ?? [];
    if (outside.length)
      lines.push(`  outside any test (a test file's top level, or a hook): ${outside.length} fixture(s)`, ...outside.map((f) => `      ${display(io, f)}`));
  }
  io.out(lines.join("\n") + "\n");
  return 0;
}
