import { expect } from "chai";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import * as fs from "node:fs";
import * as path from "node:path";
import { fsCallsOn } from "../helpers/fsCalls";
import { chatFixture } from "../helpers/chatFixture";
import { requestHash } from "../../src/canonical/json";
import { VcrFixtureError, VcrRecordError } from "../../src/errors";
import { FixtureStore, isSharedFixture } from "../../src/store/store";
import { TEMP_PREFIX } from "../../src/store/atomic";
import { validateFixtures } from "../../src/validate";
import type { Fixture } from "../../src/store/fixture";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { rerecordCommand } from "../../src/diagnose/rerecordCommand";
import { currentRunner, currentTest } from "../../src/scope";

function fixture(request: unknown = { messages: [{ role: "user", content: "hi" }], model: "m" }): Fixture {
  return chatFixture(request);
}

describe("FixtureStore", () => {
  afterEach(removeTmpDirs);

  it("reads by name: undefined when absent, the fixture when present", () => {
    const store = new FixtureStore(tmpDir());
    const f = fixture();
    expect(store.read(f.hash)).to.equal(undefined);
    store.write(f, false);
    expect(store.read(f.hash)).to.deep.equal(f);
  });

  describe("a read of a file checks its request hashes to its name (comparing the request just asked, when given)", () => {
    const asked = { model: "m", messages: [{ role: "user", content: "hi" }] }; // keys in another order than the file's
    const onDisk = (f: Fixture) => {
      const dir = tmpDir();
      fs.writeFileSync(path.join(dir, `${requestHash("chat", asked)}.json`), JSON.stringify(f, null, 2));
      return new FixtureStore(dir);
    };

    it("replays a file holding the very request asked, in any key order", () => {
      const f = fixture({ messages: [{ content: "hi", role: "user" }], model: "m" });
      expect(onDisk(f).read(f.hash, { kind: "chat", request: asked })?.response).to.deep.equal(f.response);
    });

    it("refuses one holding another request, another kind or an older schema under that name, asked or not", () => {
      const name = requestHash("chat", asked);
      const wrong: [string, Fixture][] = [
        ["another request", { ...fixture({ model: "m", messages: [{ role: "user", content: "bye" }] }), hash: name }],
        ["another kind", { ...fixture(asked), kind: "llm", hash: name }],
        ["an older schema", { ...fixture(asked), schemaVersion: 1, hash: name }],
      ];
      for (const [what, f] of wrong) {
        for (const given of [{ kind: "chat", request: asked }, undefined]) {
          expect(() => onDisk(f).read(name, given), `${what}, asked: ${given !== undefined}`).to.throw(VcrFixtureError, /does not hash to its name/);
        }
      }
    });
  });

  it("a file rewritten after it was read (or kept), now holding another request under the name, is refused at its next read (asked or not)", () => {
    const f = fixture({ messages: [{ role: "user", content: "first" }], model: "m" });
    const merged = { ...fixture({ messages: [{ role: "user", content: "other" }], model: "m" }), hash: f.hash };
    const old = Date.now() / 1000 - 3600;
    for (const [how, reads] of [
      ["read once (plainly)", 1],
      ["read twice (kept)", 2],
    ] as const) {
      for (const given of [{ kind: "chat", request: f.request }, undefined]) {
        const store = new FixtureStore(tmpDir()); // a new file: its first read is plain
        const file = store.fileFor(f.hash);
        fs.writeFileSync(file, JSON.stringify(f, null, 2));
        fs.utimesSync(file, old, old); // keepable: the second read keeps it
        for (let r = 0; r < reads; r++) expect(store.read(f.hash, given)?.request, "read, checked").to.deep.equal(f.request);
        const text = JSON.stringify(merged, null, 2);
        expect(text.length).to.equal(fs.statSync(file).size);
        fs.writeFileSync(file, text); // a bad merge after it replayed: same size, mtime set back, only the ctime moved
        fs.utimesSync(file, old, old);
        const err = (() => {
          try {
            store.read(f.hash, given);
          } catch (e) {
            return e;
          }
        })();
        expect(err, `${how}, asked: ${given !== undefined}`).to.be.instanceOf(VcrFixtureError);
        expect((err as Error).message).to.equal(
          `langchain-vcr: the fixture ${file} has a "request" that does not hash to its name (it hashes to ${requestHash("chat", merged.request)}): it was edited by hand or merged badly.\n` +
            `  It was not treated as a miss and was not overwritten.\n` +
            `  Fix it: restore it from git (git checkout -- ${JSON.stringify(file)}), or delete it and re-record (${testCommand()}).`,
        );
      }
    }
  });

  it("a file's first read is one read and no stat; its second stats and reads it, and keeps it; from the third it is one stat (a descriptor is held only a second after its last change: parsedCache.test.ts)", async () => {
    const dir = tmpDir();
    const store = new FixtureStore(dir);
    const f = fixture({ messages: [{ role: "user", content: "counted" }], model: "m" });
    store.write(f, false);
    const past = Date.now() / 1000 - 3600; // not written within the last second: keepable
    fs.utimesSync(store.fileFor(f.hash), past, past);
    const counts = { stat: 0, read: 0 };
    const seen: Array<typeof counts> = [];
    for (let i = 0; i < 4; i++) {
      const calls = await fsCallsOn(store.fileFor(f.hash), ["statSync", "readFileSync"], () => expect(store.read(f.hash)?.request).to.deep.equal(f.request));
      counts.stat += calls.statSync;
      counts.read += calls.readFileSync;
      seen.push({ ...counts });
    }
    expect(seen).to.deep.equal([
      { stat: 0, read: 1 },
      { stat: 1, read: 2 },
      { stat: 2, read: 2 },
      { stat: 3, read: 2 },
    ]);
  });

  it("a borrowing read is handed the kept fixture itself (shared, frozen throughout); any other read, or a file not kept, gets its own response", () => {
    const dir = tmpDir();
    const store = new FixtureStore(dir);
    const f = {
      ...fixture({ messages: [{ role: "user", content: "borrowed" }], model: "m" }),
      response: { generations: [{ text: "a", generationInfo: { n: [1] } }] },
    };
    store.write(f, false);
    const past = Date.now() / 1000 - 3600;
    fs.utimesSync(store.fileFor(f.hash), past, past);
    const first = store.read(f.hash, undefined, { borrow: true })!; // a first read: parsed for this caller alone
    const second = store.read(f.hash, undefined, { borrow: true })!; // read again: parsed for this caller, and a copy kept
    expect([isSharedFixture(first), isSharedFixture(second)]).to.deep.equal([false, false]);
    expect(first.response).to.not.equal(second.response);
    const kept = store.read(f.hash, undefined, { borrow: true })!;
    expect(isSharedFixture(kept)).to.equal(true);
    expect([kept, kept.response, (kept.response as typeof f.response).generations[0].generationInfo.n].map(Object.isFrozen)).to.deep.equal([true, true, true]);
    expect(store.read(f.hash, undefined, { borrow: true })).to.equal(kept); // the same object to every borrowing read
    const own = store.read(f.hash)!; // not borrowing: its own response, as before
    expect(isSharedFixture(own)).to.equal(false);
    expect(own.response).to.not.equal(kept.response);
    expect(own.response).to.deep.equal(f.response);
    ((own.response as typeof f.response).generations[0].generationInfo.n as number[]).push(2);
    expect(kept.response).to.deep.equal(f.response);
    expect(second.response).to.not.equal(kept.response);
  });

  it("names a hash's file right past the bound of the names it keeps made, and keeps no more than the bound", () => {
    const dir = tmpDir();
    const store = new FixtureStore(dir);
    const kept = () => (store as unknown as { files: Map<string, string> }).files.size;
    for (let i = 0; i < 10_050; i++) {
      const hash = i.toString(16).padStart(64, "0");
      expect(store.fileFor(hash)).to.equal(path.join(dir, hash + ".json"));
      expect(kept()).to.be.at.most(10_000);
    }
    expect(kept(), "cleared once, at the bound").to.equal(50);
  });

  it("a missing directory is a miss, not an error", () => {
    const store = new FixtureStore(path.join(tmpDir(), "not", "there"));
    expect(store.read(fixture().hash)).to.equal(undefined);
  });

  it("writes atomically and leaves no temp file; new_only never replaces an existing file", () => {
    const dir = tmpDir();
    const store = new FixtureStore(dir);
    const f = fixture();
    expect(store.write(f, false).created).to.equal(true);
    const again = store.write({ ...f, recordedAt: "2027-01-01T00:00:00.000Z" }, false);
    expect(again.created).to.equal(false);
    expect(store.read(f.hash)!.recordedAt).to.equal("2026-01-01T00:00:00.000Z");
    const over = store.write({ ...f, recordedAt: "2028-01-01T00:00:00.000Z" }, true);
    expect(over.previous?.toString()).to.include("2026-01-01");
    expect(store.read(f.hash)!.recordedAt).to.equal("2028-01-01T00:00:00.000Z");
    expect(fs.readdirSync(dir).filter((n) => n.startsWith(TEMP_PREFIX))).to.deep.equal([]);
  });

  const broken: Record<string, (f: Fixture) => string | Buffer> = {
    empty: () => "",
    "not JSON (truncated)": (f) => JSON.stringify(f, null, 2).slice(0, 40),
    binary: () => Buffer.from([0, 159, 146, 150, 255, 1]),
    "a JSON array": () => "[]",
    "the wrong hash": (f) => JSON.stringify({ ...f, hash: "0".repeat(64) }),
    "a newer schemaVersion": (f) => JSON.stringify({ ...f, schemaVersion: SCHEMA_VERSION + 1 }),
    "an unknown kind": (f) => JSON.stringify({ ...f, kind: "video" }),
    "no response": (f) => JSON.stringify({ ...f, response: undefined }),
  };
  for (const [name, make] of Object.entries(broken)) {
    it(`a fixture with ${name} is a VcrFixtureError naming the file — never a miss`, () => {
      const dir = tmpDir();
      const store = new FixtureStore(dir);
      const f = fixture();
      const file = store.fileFor(f.hash);
      fs.writeFileSync(file, make(f));
      const before = fs.readFileSync(file);
      expect(() => store.read(f.hash)).to.throw(VcrFixtureError, file);
      try {
        store.read(f.hash);
      } catch (e) {
        expect((e as VcrFixtureError).code).to.equal("VCR_FIXTURE");
        expect((e as VcrFixtureError).file).to.equal(file);
        expect((e as Error).message).to.include("git checkout --");
      }
      expect(fs.readFileSync(file).equals(before)).to.equal(true);
    });
  }

  it("the newer-schema error says to upgrade", () => {
    const store = new FixtureStore(tmpDir());
    const f = fixture();
    fs.writeFileSync(store.fileFor(f.hash), JSON.stringify({ ...f, schemaVersion: 3 }));
    expect(() => store.read(f.hash)).to.throw(/schemaVersion 3, newer than this langchain-vcr understands \(2\): upgrade langchain-vcr/);
  });

  it("a fixture saved with a UTF-8 BOM (a Windows editor) still replays and validates", async () => {
    const dir = tmpDir();
    const store = new FixtureStore(dir);
    const f = fixture();
    fs.writeFileSync(store.fileFor(f.hash), "\uFEFF" + JSON.stringify(f, null, 2));
    expect(store.read(f.hash)).to.deep.equal(f);
    expect(await validateFixtures(dir)).to.deep.equal([]);
  });

  it("unknown extra fields are tolerated", () => {
    const store = new FixtureStore(tmpDir());
    const f = fixture();
    fs.writeFileSync(store.fileFor(f.hash), JSON.stringify({ ...f, reviewedBy: "alice", note: { any: 1 } }));
    expect(store.read(f.hash)!.request).to.deep.equal(f.request);
  });

  it("__proto__ keys in a fixture never pollute prototypes", () => {
    const store = new FixtureStore(tmpDir());
    const f = fixture();
    const text = JSON.stringify(f).replace('"response":{', '"response":{"__proto__":{"polluted":true},');
    fs.writeFileSync(store.fileFor(f.hash), text);
    const read = store.read(f.hash)!;
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.getPrototypeOf(read.response)).to.equal(Object.prototype);
  });

  it("a fixture directory that is a file fails loudly with the path when recording", () => {
    const file = path.join(tmpDir(), "cassettes");
    fs.writeFileSync(file, "not a dir");
    const store = new FixtureStore(file);
    expect(store.read(fixture().hash)).to.equal(undefined);
    expect(store.read(fixture().hash)).to.equal(undefined); // the second read stats first: ENOTDIR on Node 20, no stat from Node 22
    expect(() => store.write(fixture(), false)).to.throw(VcrRecordError, file);
  });

  it("a read-only fixture directory fails loudly with the path when recording", function () {
    if (process.getuid?.() === 0) {
      // root ignores permission bits; prove the same path with a directory that cannot exist instead
      const store = new FixtureStore("/proc/langchain-vcr-cannot-exist");
      expect(() => store.write(fixture(), false)).to.throw(VcrRecordError, "/proc/langchain-vcr-cannot-exist");
      return;
    }
    const dir = tmpDir();
    fs.chmodSync(dir, 0o500);
    expect(() => new FixtureStore(dir).write(fixture(), false)).to.throw(VcrRecordError, dir);
  });
});

/** The command that records the running test again: this repository runs its tests under the mocha plugin, so it names this test. */
function testCommand(): string {
  const test = currentTest();
  expect(test, "run under the langchain-vcr mocha plugin").to.not.equal(undefined);
  const command = rerecordCommand(currentRunner(), test!.filterTitle ?? test!.title);
  expect(command).to.match(/^LANGCHAIN_VCR_MODE=record_or_replay npx mocha .*--grep /);
  return command;
}
