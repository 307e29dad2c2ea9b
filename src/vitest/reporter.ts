/**
 * The reporter the langchain-vcr vitest plugin adds. It runs in vitest's main process: at the
 * end of the run it adds up every test file's report (counts, fixtures used, failed tests),
 * prints one summary line and writes the run's ledger. It reads from vitest what makes a run
 * partial: `-t`, `.only`, test files left out (named files, `--changed`, `related`,
 * `--exclude`/`--project`/`--dir`), watch mode, a project without the plugin's setup file, and `--shard` (a declared shard, merged with its siblings by `prune`). The run is on
 * record (as unfinished) from the moment its tests start.
 */
import { filesUsingOnly } from "../runner/onlyScan";
import { argvNarrowingReason, NARROWING_OPTIONS } from "../runner/narrowingArgs";
import { finishRun, recordRunStart, type RunShare } from "../runner/share";
import type { Shard } from "../runner/ledgerFiles";
import type { ProjectConfigLike } from "./inlined";

interface TestModuleLike {
  moduleId: string;
  /** vitest 3+: the project the test file ran in. */
  project?: { name?: string };
}

/** Of the projects without the plugin's setup file, those that ran a test file in this run (all of them, when vitest does not say which project a file ran in). */
export function unscopedThatRan(unscoped: readonly string[], modules: readonly TestModuleLike[]): string[] {
  if (!modules.every((m) => m.project && typeof m.project === "object")) return [...unscoped];
  const ran = new Set(modules.map((m) => m.project?.name || "(unnamed)"));
  return unscoped.filter((name) => ran.has(name));
}
export interface VitestLike {
  projects?: { config?: ProjectConfigLike & { setupFiles?: string[] } }[];
  config: {
    testNamePattern?: RegExp | string;
    watch?: boolean;
    changed?: boolean | string;
    related?: string[] | string;
    shard?: { index: number; count: number };
    mergeReports?: string;
  };
  globTestSpecifications?(): Promise<{ moduleId: string }[]>;
}

/** What a `--merge-reports` run prints instead of a summary: it made no call, and leaves the shards' ledgers the last. */
export const MERGE_LINE =
  "langchain-vcr: a --merge-reports run calls no model and writes no ledger: each shard's run printed its own summary and wrote the ledger prune reads, " +
  "unless it ran with --reporter=blob alone on the command line (it said so then; keep the default reporter beside blob: docs/runners.md)";

export class LangchainVcrVitestReporter {
  private vitest: VitestLike | undefined;
  /** The projects that run without the plugin's setup file: their fixture use is not counted. */
  private unscoped: string[] = [];

  /** `inspect`: what the plugin checks of every project once vitest has resolved them (./index.ts); the projects without its setup file. */
  constructor(
    private readonly share: RunShare,
    private readonly inspect: (vitest: VitestLike) => string[] = () => [],
  ) {}

  onInit(vitest: VitestLike): void {
    this.vitest = vitest;
    this.unscoped = this.inspect(vitest);
  }

  /** Tests are about to run (never called by `vitest list`): the run is on record from here. */
  onTestRunStart(): void {
    if (this.merging()) return;
    recordRunStart(this.share, this.shard());
  }

  /** `--merge-reports` replays the shards' blob reports and runs no test: the shards' own runs are on record, and stay the last. */
  private merging(): boolean {
    return !!this.vitest?.config.mergeReports;
  }

  private shard(): Shard | undefined {
    const s = this.vitest?.config.shard;
    return s ? { index: s.index, total: s.count } : undefined;
  }

  async onTestRunEnd(modules: readonly TestModuleLike[], errors: readonly unknown[], reason: string): Promise<void> {
    if (this.merging()) {
      process.stdout.write(`\n${MERGE_LINE}\n`);
      return;
    }
    const config = this.vitest?.config ?? {};
    const reasons: string[] = [];
    const pattern = config.testNamePattern;
    if (pattern) reasons.push(`-t ${JSON.stringify(pattern instanceof RegExp ? pattern.source : String(pattern))} selected only some tests`);
    if (config.watch) reasons.push("watch mode runs only what changed, never the whole suite");
    if (config.changed) reasons.push("--changed ran only the test files related to changed files");
    // --changed fills `related` with the changed files: one reason, not two
    const related = !config.changed && !!config.related && (!Array.isArray(config.related) || config.related.length > 0);
    if (related) reasons.push("related ran only the test files related to the given sources");
    const focused = filesUsingOnly(modules.map((m) => m.moduleId));
    if (focused.length) reasons.push(`.only selected exclusive tests in ${focused.join(", ")}`);
    const shard = this.shard();
    // the files --changed or related left out are that reason's, not files named on the command line
    if (!shard && !config.changed && !related) reasons.push(...(await this.filesLeftOut(modules)));
    // the config vitest resolved already leaves these files out: the command line says so
    const narrowed = argvNarrowingReason(NARROWING_OPTIONS.vitest);
    if (narrowed) reasons.push(narrowed);
    if (errors.length) reasons.push(`${errors.length} unhandled error(s) during the run`);
    for (const name of unscopedThatRan(this.unscoped, modules))
      reasons.push(`vitest project ${JSON.stringify(name)} ran without langchain-vcr's setup file, so the fixtures it used are not counted`);
    finishRun(this.share, { reasons, exitCode: reason === "passed" && errors.length === 0 ? 0 : 1, shard });
  }

  /** Test files the config selects that did not run: named files, `--changed`, `related`. */
  private async filesLeftOut(modules: readonly TestModuleLike[]): Promise<string[]> {
    if (!this.vitest?.globTestSpecifications) return [];
    try {
      const all = new Set((await this.vitest.globTestSpecifications()).map((s) => s.moduleId));
      const ran = new Set(modules.map((m) => m.moduleId));
      const missing = [...all].filter((f) => !ran.has(f));
      return missing.length ? [`${missing.length} of ${all.size} test file(s) did not run (test files named on the command line?), e.g. ${missing[0]}`] : [];
    } catch (e) {
      return [`could not list the project's test files (${(e as Error).message}), so whether all of them ran is unknown`];
    }
  }
}
