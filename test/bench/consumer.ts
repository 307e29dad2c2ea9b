/**
 * A user's project for the bench's child processes: a temp directory whose node_modules holds
 * langchain-vcr unpacked from `npm pack` (the packed build, as users install it) and links to
 * every other package of this repository's node_modules (LangChain, the runners). dist/ is
 * rebuilt first when a source file is newer than it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { log, tmpDir } from "./env";

const ROOT = path.join(__dirname, "../..");

export interface Consumer {
  dir: string;
  /** The tarball's file name (e.g. langchain-vcr-0.1.0.tgz). */
  tarball: string;
  write(name: string, text: string): string;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const f of fs.readdirSync(dir, { recursive: true }) as string[]) newest = Math.max(newest, fs.statSync(path.join(dir, f)).mtimeMs);
  return newest;
}

function ensureBuilt(): void {
  const built = path.join(ROOT, "dist/esm/index.mjs");
  const sources = Math.max(newestMtime(path.join(ROOT, "src")), fs.statSync(path.join(ROOT, "scripts/build.mjs")).mtimeMs);
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return;
  log("bench: building dist/ (a source is newer than it) ...");
  execFileSync(process.execPath, [path.join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
}

let made: Consumer | undefined;

export function consumer(): Consumer {
  if (made) return made;
  ensureBuilt();
  const dir = tmpDir("consumer");
  const packs = tmpDir("pack");
  const [info] = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", packs], { cwd: ROOT, encoding: "utf8" })) as {
    filename: string;
  }[];
  const nm = path.join(dir, "node_modules");
  const own = path.join(nm, "langchain-vcr");
  fs.mkdirSync(own, { recursive: true });
  execFileSync("tar", ["-xzf", path.join(packs, info.filename), "-C", own, "--strip-components=1"]);
  for (const name of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if (name === ".bin" || name === "langchain-vcr" || name.startsWith(".")) continue;
    fs.symlinkSync(path.join(ROOT, "node_modules", name), path.join(nm, name), "dir");
  }
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "bench-consumer", private: true }) + "\n");
  made = {
    dir,
    tarball: info.filename,
    write(name, text) {
      const file = path.join(dir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    },
  };
  return made;
}
