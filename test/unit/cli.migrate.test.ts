/**
 * `langchain-vcr migrate`, in process (src/, not dist/): two older fixtures that upgrade to the
 * same new name (the same tool-calling request, one recorded with zod 3's JSON Schema dialect
 * and one with zod 4's, which the current form no longer tells apart).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../../src/canonical/json";
import { main } from "../../src/cli/main";
import { ROOT } from "../helpers/built";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import nodeFs = require("node:fs"); // the module object itself, to make one removal fail as an immutable file's does

const SOURCE = path.join(ROOT, "test/fixtures-0.1.0/cassettes/d57b9b1bc14453086a732bb4700d8eb5eb828ff9027e0947492c5bdf41471646.json");
const DIALECTS = ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"];

/** A schemaVersion 1 fixture of the tool-calling request with this JSON Schema dialect and answer; returns its file name. */
function writeOlder(dir: string, dialect: string, answer: string): string {
  const f = JSON.parse(fs.readFileSync(SOURCE, "utf8"));
  for (const t of f.request.tools) t.parameters = { ...(t.parameters ?? {}), $schema: dialect };
  f.hash = requestHash("chat", f.request, 1);
  f.response.generations[0].message.content = answer;
  f.response.generations[0].text = answer;
  const name = `${f.hash}.json`;
  fs.writeFileSync(path.join(dir, name), JSON.stringify(f, null, 2) + "\n");
  return name;
}

async function migrate(dir: string, ...flags: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["migrate", dir, ...flags], { cwd: dir, env: {}, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** `text` matched literally in a RegExp. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function bytesOf(dir: string): Record<string, string> {
  return Object.fromEntries(fixtureFiles(dir).map((n) => [n, fs.readFileSync(path.join(dir, n), "utf8")]));
}

/** Runs migrate with --dry-run, then without: each exits 1 and renames nothing, every file left byte for byte; returns what each printed. */
async function leftAsTheyWere(dir: string): Promise<{ code: number; out: string; err: string }[]> {
  const before = bytesOf(dir);
  const runs = [];
  for (const flags of [["--dry-run"], []]) {
    const r = await migrate(dir, ...flags);
    expect(r.code, flags.join(" ")).to.equal(1);
    expect(bytesOf(dir)).to.deep.equal(before);
    expect(r.out).to.not.contain("→");
    runs.push(r);
  }
  return runs;
}

describe("cli: migrate, two older fixtures with one new name", () => {
  it("a temporary file of an interrupted write in the directory is named after the run (it finished: exit 0), with what to do", async () => {
    const dir = tmpDir("vcr-migrate-");
    writeOlder(dir, DIALECTS[0], "ANSWER");
    fs.writeFileSync(path.join(dir, ".vcr-tmp-chat-123-1"), "{");
    const r = await migrate(dir);
    expect(r.code).to.equal(0);
    expect(r.err)
      .to.contain("1 temporary file(s) of an interrupted write are in")
      .and.contain(".vcr-tmp-chat-123-1")
      .and.contain("Delete them once no test run");
    expect(fs.existsSync(path.join(dir, ".vcr-tmp-chat-123-1")), "never deleted by migrate: a run may be writing it").to.equal(true);
  });

  afterEach(removeTmpDirs);

  it("with different responses: leaves both byte for byte, writes no new file, lists both and exits 1 (--dry-run too)", async () => {
    const dir = tmpDir("vcr-migrate-");
    const a = writeOlder(dir, DIALECTS[0], "ANSWER-A");
    const b = writeOlder(dir, DIALECTS[1], "ANSWER-B");
    for (const r of await leftAsTheyWere(dir)) {
      expect(r.out).to.contain(", 2 left as they were.");
      for (const [self, other] of [
        [a, b],
        [b, a],
      ]) {
        expect(r.err).to.match(
          new RegExp(
            `  ${self}: upgrades to [0-9a-f]{64}\\.json, as does ${other}, with a different response: the current form no longer tells their requests apart, so only one answer can stay\\. ` +
              `Delete the one you do not want, then run npx langchain-vcr migrate ${escape(JSON.stringify(dir))} again\\n`,
          ),
        );
      }
    }
  });

  it("with the same response: writes the new file once, removes both and says they were merged (exit 0)", async () => {
    const dir = tmpDir("vcr-migrate-");
    const a = writeOlder(dir, DIALECTS[0], "SAME");
    const b = writeOlder(dir, DIALECTS[1], "SAME");
    const r = await migrate(dir);
    expect(r.err).to.equal("");
    expect(r.code).to.equal(0);
    const after = fixtureFiles(dir);
    expect(after).to.have.length(1);
    expect(r.out).to.contain(`  ${a} → ${after[0]}\n  ${b} → ${after[0]} (the same response as ${a}: merged into one)\n`);
    expect(JSON.parse(fs.readFileSync(path.join(dir, after[0]), "utf8")).response.generations[0].text).to.equal("SAME");
  });

  it("with different responses and the new file already there with one of them: removes that one, leaves the other (exit 1)", async () => {
    const dir = tmpDir("vcr-migrate-");
    const a = writeOlder(dir, DIALECTS[0], "ANSWER-A");
    const side = tmpDir("vcr-migrate-side-");
    fs.copyFileSync(path.join(dir, a), path.join(side, a));
    expect((await migrate(side)).code).to.equal(0);
    const [target] = fixtureFiles(side);
    fs.copyFileSync(path.join(side, target), path.join(dir, target));
    const b = writeOlder(dir, DIALECTS[1], "ANSWER-B");
    const bBytes = fs.readFileSync(path.join(dir, b), "utf8");
    const r = await migrate(dir);
    expect(r.code).to.equal(1);
    expect(r.out).to.contain(`  ${a} → ${target} (already there in the current form with the same response; the older copy removed)\n`);
    expect(r.err).to.contain(`  ${b}: upgrades to ${target}, which is already there in the current form with a different response`);
    // the line says what to delete; validate would only say "run migrate" again
    expect(r.err).to.contain("Each line above says which file to delete; then run npx langchain-vcr migrate").and.not.contain("validate");
    expect(fixtureFiles(dir).sort()).to.deep.equal([b, target].sort());
    expect(fs.readFileSync(path.join(dir, b), "utf8")).to.equal(bBytes);
  });
});

describe("cli: migrate, one older fixture whose new name is already taken", () => {
  afterEach(removeTmpDirs);

  /** `dir` with the older fixture answering `older`, and its upgraded file (migrated on the side) answering `current`. */
  async function olderAndCurrent(older: string, current: string): Promise<{ dir: string; old: string; target: string }> {
    const side = tmpDir("vcr-migrate-side-");
    writeOlder(side, DIALECTS[0], current);
    expect((await migrate(side)).code).to.equal(0);
    const [target] = fixtureFiles(side);
    const dir = tmpDir("vcr-migrate-");
    fs.copyFileSync(path.join(side, target), path.join(dir, target));
    return { dir, old: writeOlder(dir, DIALECTS[0], older), target };
  }

  it("with a different response there (recorded since): both left byte for byte, the older one listed with what to delete, exit 1 (--dry-run too)", async () => {
    // before: the older file was removed, and its answer with it
    const { dir, old, target } = await olderAndCurrent("OLDER ANSWER", "RECORDED SINCE");
    for (const r of await leftAsTheyWere(dir)) {
      expect(r.err).to.contain(
        `  ${old}: upgrades to ${target}, which is already there in the current form with a different response (recorded since; replay uses that one). ` +
          `To keep that answer, delete ${old}; to keep this one, delete ${target}, then run npx langchain-vcr migrate ${JSON.stringify(dir)} again\n`,
      );
    }
    fs.unlinkSync(path.join(dir, target));
    expect((await migrate(dir)).code).to.equal(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, target), "utf8")).response.generations[0].text).to.equal("OLDER ANSWER");
  });

  it("with the same response there (a run interrupted after writing it): the older one removed, exit 0", async () => {
    const { dir, old, target } = await olderAndCurrent("SAME", "SAME");
    const r = await migrate(dir);
    expect([r.code, r.err]).to.deep.equal([0, ""]);
    expect(r.out).to.contain(`  ${old} → ${target} (already there in the current form with the same response; the older copy removed)\n`);
    expect(fixtureFiles(dir)).to.deep.equal([target]);
  });
});

describe("cli: migrate, a file it cannot remove", () => {
  afterEach(removeTmpDirs);

  it("stops with a message naming the file, exit 1, after printing every upgrade already done", async () => {
    const dir = tmpDir("vcr-migrate-");
    const older = fs
      .readdirSync(path.dirname(SOURCE))
      .filter((n) => /^[0-9a-f]{64}\.json$/.test(n))
      .sort();
    for (const n of older) fs.copyFileSync(path.join(path.dirname(SOURCE), n), path.join(dir, n));
    const stuck = path.join(dir, older[1]);
    const fsm = nodeFs as unknown as Record<"unlinkSync" | "rmSync", (p: unknown, ...rest: unknown[]) => unknown>;
    const real = { unlinkSync: fsm.unlinkSync, rmSync: fsm.rmSync };
    const refuse = (p: unknown) => {
      if (p === stuck) throw Object.assign(new Error(`EPERM: operation not permitted, unlink '${stuck}'`), { code: "EPERM" });
    };
    fsm.unlinkSync = (p, ...rest) => (refuse(p), real.unlinkSync(p, ...rest));
    fsm.rmSync = (p, ...rest) => (refuse(p), real.rmSync(p, ...rest));
    let r: { code: number; out: string; err: string };
    try {
      r = await migrate(dir);
    } finally {
      Object.assign(fsm, real);
    }
    expect(r.code).to.equal(1);
    expect(r.err).to.not.contain("unexpected error");
    expect(r.out).to.match(new RegExp(`^  ${older[0]} → [0-9a-f]{64}\\.json\n$`));
    const upgraded = fixtureFiles(dir).filter((n) => !older.includes(n) && !r.out.includes(n));
    expect(upgraded).to.have.length(1);
    expect(r.err).to.equal(
      `langchain-vcr: migrate could not remove the older fixture ${stuck}: EPERM: operation not permitted, unlink '${stuck}'.\n` +
        `  1 fixture(s) were upgraded before it (listed above); its upgraded copy ${path.join(dir, upgraded[0])} is in place, so both are there now and no answer is lost.\n` +
        `  A file that cannot be removed or written is usually read-only, immutable (chattr +i, chflags uchg) or on a read-only mount, or its directory is not writable.\n` +
        `  Fix that, then run the same command again, which finishes the job: npx langchain-vcr migrate ${JSON.stringify(dir)}\n`,
    );
    expect(fs.existsSync(stuck)).to.equal(true);
    const again = await migrate(dir);
    expect(again.code).to.equal(0);
    expect(fixtureFiles(dir).filter((n) => older.includes(n))).to.deep.equal([]);
    expect(fixtureFiles(dir)).to.have.length(older.length);
  });
});
