import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { copyJson } from "../../src/canonical/copy";
import { ParsedFileCache } from "../../src/store/parsedCache";
import { descriptorsCheck } from "../../src/store/heldFiles";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const OLD = Date.now() / 1000 - 3600;

describe("ParsedFileCache (what replay parsed, per fixture file)", () => {
  let dir: string;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => removeTmpDirs());

  function oldFile(name: string, text = "{}"): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    fs.utimesSync(file, OLD, OLD);
    return file;
  }

  it("a file's first read is plain (no stat, nothing kept); from its second it is kept while its stat stays the same, and dropped when the file changes", () => {
    const cache = new ParsedFileCache<string>();
    const file = oldFile("a.json");
    let made = 0;
    const make = () => `parsed ${++made}`;
    expect(cache.firstRead(file), "the first read").to.equal(true);
    expect(cache.firstRead(file), "asked again").to.equal(false);
    expect(cache.get(file, cache.stat(file)!), "read once: nothing kept").to.equal(undefined);
    expect(cache.size).to.equal(0);
    cache.keep(file, cache.stat(file)!, make);
    expect(cache.get(file, cache.stat(file)!)).to.equal("parsed 1");
    expect(cache.get(file, cache.stat(file)!)).to.equal("parsed 1");
    expect(made).to.equal(1);
    fs.writeFileSync(file, "{}");
    fs.utimesSync(file, OLD, OLD); // same size and mtime: the ctime moved
    expect(cache.get(file, cache.stat(file)!)).to.equal(undefined);
    expect(cache.size).to.equal(0);
    expect(cache.firstRead(file), "a changed file is not read as new: the store stats it").to.equal(false);
  });

  it("a file rewritten after it was kept is kept again at its new stat", () => {
    const cache = new ParsedFileCache<string>();
    const file = oldFile("b.json");
    cache.firstRead(file);
    cache.keep(file, cache.stat(file)!, () => "old");
    fs.writeFileSync(file, '{"x":1}');
    fs.utimesSync(file, OLD, OLD);
    expect(cache.get(file, cache.stat(file)!)).to.equal(undefined);
    cache.keep(file, cache.stat(file)!, () => "new");
    expect(cache.get(file, cache.stat(file)!)).to.equal("new");
  });

  it("does not keep a file written within the last second (its time may not show a same-tick rewrite)", () => {
    const cache = new ParsedFileCache<string>();
    const file = path.join(dir, "fresh.json");
    fs.writeFileSync(file, "{}");
    cache.firstRead(file);
    cache.keep(file, cache.stat(file)!, () => "parsed");
    expect(cache.size).to.equal(0);
    expect(cache.get(file, cache.stat(file)!)).to.equal(undefined);
  });

  it("says undefined for a missing file; a path through a file throws ENOTDIR on Node 20 and is undefined from Node 22 on", () => {
    const cache = new ParsedFileCache<string>();
    expect(cache.stat(path.join(dir, "none.json"))).to.equal(undefined);
    const file = oldFile("f");
    // Node 22's statSync({ throwIfNoEntry: false }) covers ENOTDIR too; the store reads either as no fixture (store.test.ts)
    if (Number(process.versions.node.split(".")[0]) <= 20) expect(() => cache.stat(path.join(file, "x.json"))).to.throw(/ENOTDIR/);
    else expect(cache.stat(path.join(file, "x.json"))).to.equal(undefined);
  });

  it("is bounded: past its size the oldest entry goes", () => {
    const cache = new ParsedFileCache<number>(3);
    const files = [0, 1, 2, 3, 4].map((i) => oldFile(`${i}.json`));
    files.forEach((f, i) => cache.keep(f, cache.stat(f)!, () => i));
    expect(cache.size).to.equal(3);
    expect(files.map((f) => cache.get(f, cache.stat(f)!))).to.deep.equal([undefined, undefined, 2, 3, 4]);
    expect(cache.firstRead(files[0]), "an evicted file is read as new").to.equal(true);
    expect(cache.size, "a file read once takes a place").to.equal(2);
  });
});

describe("ParsedFileCache: a kept file checked through a descriptor held open", () => {
  let dir: string;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => removeTmpDirs());
  const linux = process.platform === "linux";
  const openFds = () => fs.readdirSync("/proc/self/fd").length;
  // files written here have a ctime of now: a descriptor is held only once it is a second old (a clock that moved on)
  let ahead = 2000;
  const now = () => Date.now() + ahead;
  beforeEach(() => (ahead = 2000));

  function oldFile(name: string, text = "{}"): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    fs.utimesSync(file, OLD, OLD);
    return file;
  }
  /** Kept, then found unchanged by path once: from then on held (where descriptors check). */
  function keptAndHit(cache: ParsedFileCache<string>, file: string, value: string): void {
    cache.firstRead(file);
    cache.keep(file, cache.stat(file)!, () => value);
    expect(cache.get(file, cache.stat(file)!)).to.equal(value);
  }

  it("from the first replay after it was kept, answers with no path lookup; a change of any kind drops it, and closes its descriptor", function () {
    if (!linux || !descriptorsCheck(dir)) this.skip();
    const changes: [string, (f: string) => void][] = [
      ["written in place, same size, times set back", (f) => (fs.writeFileSync(f, "[]"), fs.utimesSync(f, OLD, OLD))],
      ["replaced by a rename over it", (f) => (fs.writeFileSync(f + ".tmp", "{}"), fs.utimesSync(f + ".tmp", OLD, OLD), fs.renameSync(f + ".tmp", f))],
      ["moved away (still linked), another put at its path", (f) => (fs.renameSync(f, f + ".old"), fs.writeFileSync(f, "{}"))],
      ["deleted", (f) => fs.rmSync(f)],
    ];
    for (const [name, change] of changes) {
      const cache = new ParsedFileCache<string>(undefined, { now });
      const file = oldFile(`${changes.findIndex((c) => c[0] === name)}.json`);
      expect(cache.held(file), `${name}: kept, not yet replayed`).to.equal(undefined);
      const before = openFds();
      keptAndHit(cache, file, "kept");
      expect(openFds(), name).to.equal(before + 1);
      expect(cache.held(file), name).to.equal("kept");
      expect(cache.held(file), name).to.equal("kept");
      change(file);
      expect(cache.held(file), name).to.equal(undefined);
      expect(openFds(), `${name}: closed`).to.equal(before);
      expect(cache.size, name).to.equal(0);
    }
  });

  it("holds at most its bound of descriptors; an evicted entry closes its own", function () {
    if (!linux || !descriptorsCheck(dir)) this.skip();
    const before = openFds();
    const cache = new ParsedFileCache<string>(3, { maxHeld: 2, now });
    const files = [0, 1, 2].map((i) => oldFile(`${i}.json`));
    files.forEach((f, i) => keptAndHit(cache, f, `v${i}`));
    expect(openFds()).to.equal(before + 2);
    expect(files.map((f) => cache.held(f))).to.deep.equal(["v0", "v1", undefined]);
    keptAndHit(cache, oldFile("3.json"), "v3"); // evicts 0.json's entry: its descriptor goes, and 3.json takes one
    expect(openFds()).to.equal(before + 2);
    expect(cache.held(files[0])).to.equal(undefined);
    expect(cache.held(path.join(dir, "3.json"))).to.equal("v3");
  });

  it("holds none while the file's ctime is within the last second (a coarse clock could leave a replacement's times the same), and does once it is older", function () {
    if (!linux || !descriptorsCheck(dir)) this.skip();
    ahead = 0;
    const cache = new ParsedFileCache<string>(undefined, { now });
    const file = oldFile("fresh-ctime.json"); // mtime an hour back, ctime now: as cp -p, tar x or rsync -a leave a file
    keptAndHit(cache, file, "kept");
    expect(cache.held(file), "its ctime is now").to.equal(undefined);
    expect(cache.get(file, cache.stat(file)!)).to.equal("kept");
    expect(cache.held(file)).to.equal(undefined);
    ahead = 1500;
    expect(cache.get(file, cache.stat(file)!)).to.equal("kept");
    expect(cache.held(file), "a second and a half later").to.equal("kept");
  });

  it("when none is left, a descriptor unused for a second goes to the file that wants one (a fixture deleted, or not replayed since); one in use stays", function () {
    if (!linux || !descriptorsCheck(dir)) this.skip();
    const cache = new ParsedFileCache<string>(undefined, { maxHeld: 1, now });
    const [a, b] = [oldFile("a.json"), oldFile("b.json")];
    keptAndHit(cache, a, "a");
    expect(cache.held(a)).to.equal("a");
    const before = openFds();
    keptAndHit(cache, b, "b");
    expect(cache.held(b), "a's was used just now").to.equal(undefined);
    ahead += 1500; // a unused since
    expect(cache.get(b, cache.stat(b)!)).to.equal("b");
    expect(cache.held(b)).to.equal("b");
    expect(cache.held(a), "a's went to b: a is checked by path again").to.equal(undefined);
    expect(cache.get(a, cache.stat(a)!), "still kept").to.equal("a");
    expect(openFds()).to.equal(before);
  });

  it("never holds a symbolic link, nor a file where descriptors do not see a replacement: those are checked by path", function () {
    if (!linux) this.skip();
    const before = openFds();
    const target = oldFile("target.json");
    const link = path.join(dir, "link.json");
    fs.symlinkSync(target, link);
    const cache = new ParsedFileCache<string>(undefined, { now });
    keptAndHit(cache, link, "through the link");
    expect(cache.held(link)).to.equal(undefined);
    let asked = 0;
    const elsewhere = new ParsedFileCache<string>(10, { holdable: () => (asked++, false), now }); // overlayfs, NFS, FUSE…
    const file = oldFile("plain.json");
    keptAndHit(elsewhere, file, "plain");
    expect(elsewhere.held(file)).to.equal(undefined);
    expect(elsewhere.get(file, elsewhere.stat(file)!), "still kept, checked by path").to.equal("plain");
    expect(elsewhere.get(file, elsewhere.stat(file)!)).to.equal("plain");
    expect(asked, "its file system asked about once, not on every replay").to.equal(1);
    expect(openFds()).to.equal(before);
  });
});

describe("copyJson", () => {
  it("copies every object and array of a parsed value, deeply", () => {
    const value = JSON.parse('{"a":[{"b":1},[2,null]],"c":{"d":"e"},"f":true}');
    const copy = copyJson(value);
    expect(copy).to.deep.equal(value);
    expect(copy).to.not.equal(value);
    expect(copy.a).to.not.equal(value.a);
    expect(copy.a[0]).to.not.equal(value.a[0]);
    expect(copy.a[1]).to.not.equal(value.a[1]);
    expect(copy.c).to.not.equal(value.c);
  });

  it('keeps a "__proto__" key as data, as JSON.parse does, never as the prototype', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"x":1}');
    const copy = copyJson(value);
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect(Object.keys(copy)).to.deep.equal(["__proto__", "x"]);
    expect(JSON.stringify(copy)).to.equal('{"__proto__":{"polluted":true},"x":1}');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
});
