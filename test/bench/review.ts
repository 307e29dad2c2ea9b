/**
 * Bench section "review": `langchain-vcr diff` over 10,000 fixtures in a git repository with
 * 100 changed (50 prompt edits, 50 in-place re-records), in this process and as the CLI in a
 * child process; `migrate` of 0.1.0 fixtures at two directory sizes (files per second).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../../src/canonical/json";
import { migrateDir } from "../../src/cli/migrate";
import { diffFixtures } from "../../src/cli/diff";
import { formatFixture } from "../../src/store/format";
import { DIST_BIN } from "../helpers/built";
import { git } from "../helpers/git";
import { tmpDir } from "./env";

function chat(i: number, version: number, text = `Question ${i}: what is ${i} squared?`, answer = `${i * i}`): { name: string; body: string } {
  const request = {
    model: "gpt-4o-mini",
    temperature: 0,
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: text },
    ],
  };
  const hash = requestHash("chat", request, version);
  const response = { generations: [{ text: answer, message: { type: "ai", content: answer, response_metadata: { finish_reason: "stop" } } }] };
  return {
    name: `${hash}.json`,
    body: formatFixture({ schemaVersion: version, kind: "chat", hash, recordedAt: "2026-12-01T00:00:00.000Z", request, response }),
  };
}

function write(dir: string, f: { name: string; body: string }): void {
  fs.writeFileSync(path.join(dir, f.name), f.body);
}

export interface ReviewBench {
  fixtures: number;
  changed: number;
  diffMs: number[];
  cliMs?: number;
  found: { changed: number; rerecorded: number; added: number; removed: number };
  migrate: { fixtures: number; seconds: number; perSecond: number }[];
}

export function benchReview(options: { fixtures: number; rounds: number; migrateSizes: number[] }): ReviewBench {
  const repo = tmpDir("vcr-bench-diff-");
  const dir = path.join(repo, "cassettes");
  fs.mkdirSync(dir);
  git(repo, "init", "-q");
  for (let i = 0; i < options.fixtures; i++) write(dir, chat(i, 2));
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "fixtures");
  for (let i = 0; i < 50; i++) {
    fs.rmSync(path.join(dir, chat(i, 2).name));
    write(dir, chat(i, 2, `Question ${i}: what is ${i} squared, exactly?`));
    write(dir, chat(1000 + i, 2, undefined, `about ${(1000 + i) ** 2}`));
  }
  const diffMs: number[] = [];
  let found = { changed: 0, rerecorded: 0, added: 0, removed: 0 };
  for (let r = 0; r < options.rounds; r++) {
    const t0 = process.hrtime.bigint();
    const { report } = diffFixtures(dir, "HEAD");
    diffMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    found = { changed: report.changed.length, rerecorded: report.rerecorded.length, added: report.added.length, removed: report.removed.length };
  }
  let cliMs: number | undefined;
  if (fs.existsSync(DIST_BIN)) {
    const t0 = Date.now();
    execFileSync(process.execPath, [DIST_BIN, "diff", "cassettes", "--format", "markdown"], { cwd: repo, stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
    cliMs = Date.now() - t0;
  }
  const migrate = options.migrateSizes.map((n) => {
    const m = tmpDir("vcr-bench-migrate-");
    for (let i = 0; i < n; i++) write(m, chat(i, 1));
    const t0 = process.hrtime.bigint();
    const r = migrateDir(m);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (r.renamed.length !== n || r.left.length) throw new Error(`bench: migrate upgraded ${r.renamed.length} of ${n}`);
    return { fixtures: n, seconds, perSecond: n / seconds };
  });
  return { fixtures: options.fixtures, changed: 100, diffMs, cliMs, found, migrate };
}
