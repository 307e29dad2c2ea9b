import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { RunLedger } from "../../src/mocha/ledger";
import { RootRelative, readLedgers, relativeToRoot } from "../../src/runner/ledgerFiles";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const ROOTS = ["/", "/a", "/a/b", "/a/b/"];
const FILES = [
  "/a/b/c.json",
  "/a/b/x/y.json",
  "/a/c.json",
  "/a/bc/d.json",
  "/a/b",
  "/a",
  "/",
  "/a/b/",
  "/a/b/./c.json",
  "/a/b/../c.json",
  "/a/b/..",
  "/a/b/.",
  "/a/b/..x/d.json",
  "/a/b/.../d.json",
  "/a/b//c.json",
  "/x/../a/b/c.json",
  "/elsewhere/f.json",
  "c.json",
  "rel/c.json",
  "../up.json",
  "",
];

describe("RootRelative (ledger paths, one path.relative per directory)", () => {
  it("gives exactly relativeToRoot's answer for every path, the first time and from its cache", () => {
    let compared = 0;
    for (const root of ROOTS) {
      const rel = new RootRelative(root);
      for (let round = 0; round < 2; round++) {
        for (const file of FILES) {
          expect(rel.of(file), `${root} + ${file} (round ${round + 1})`).to.equal(relativeToRoot(root, file));
          compared++;
        }
      }
    }
    expect(compared).to.equal(ROOTS.length * FILES.length * 2);
  });

  it("a directory above the root is not cached as a prefix: its `..` would cancel against the file's name", () => {
    const rel = new RootRelative("/a/b");
    expect(rel.of("/a/b")).to.equal("");
    expect(rel.of("/a/x.json")).to.equal("../x.json");
    expect(rel.of("/a/b")).to.equal("");
  });
});

describe("RunLedger lists (sorted once per change)", () => {
  let root: string;
  beforeEach(() => (root = tmpDir()));
  afterEach(() => removeTmpDirs());
  const at = (p: string) => path.join(root, p);
  const ledger = () =>
    new RunLedger({
      root,
      ledgerDir: at("ledgers"),
      run: { role: "worker", runId: "r", mainId: "m", mainPid: 1, startedAt: "2026-01-01T00:00:00.000Z", argvReasons: [] },
    });

  it("records every file and title in sorted order, relative to the root", () => {
    const l = ledger();
    l.useAll([at("f/b.json"), at("f/a.json")], new Map([[at("f/c.json"), new Map([[at("test/x.spec.ts"), new Set(["t2", "t1"])]])]]));
    l.use(at("g/d.json"), "t3");
    l.use(at("g/d.json"), "t3", at("test/x.spec.ts"));
    const r = l.record();
    expect(r.used).to.deep.equal(["f/a.json", "f/b.json", "f/c.json", "g/d.json"]);
    expect(r.usedBy).to.deep.equal({ "f/c.json": { "test/x.spec.ts": ["t1", "t2"] }, "g/d.json": { "": ["t3"], "test/x.spec.ts": ["t3"] } });
  });

  it("a file used after a write is in the next write (the sorted lists are not kept past a change)", () => {
    const l = ledger();
    l.use(at("f/a.json"), "t1");
    l.flush();
    l.useAll([], new Map([[at("f/a.json"), new Map([["", new Set(["t0"])]])]]));
    l.use(at("f/0.json"));
    l.flush();
    const { ledgers } = readLedgers(at("ledgers"));
    expect(ledgers.map((x) => [x.used, x.usedBy])).to.deep.equal([[["f/0.json", "f/a.json"], { "f/a.json": { "": ["t0", "t1"] } }]]);
  });

  it("the spec files read from the root suite are in the next write too", () => {
    const l = ledger();
    expect(l.record().specFiles).to.deep.equal([]);
    const rootSuite = { tests: [{ file: at("test/b.spec.js"), state: "passed" }], suites: [{ tests: [{ file: at("test/a.spec.js"), state: "passed" }] }] };
    l.flush({ test: { parent: rootSuite } });
    expect(l.record().specFiles).to.deep.equal(["test/a.spec.js", "test/b.spec.js"]);
    expect(fs.readdirSync(at("ledgers/r"))).to.have.length(1);
  });
});
