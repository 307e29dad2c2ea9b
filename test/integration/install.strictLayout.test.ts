/**
 * `vcr.install()` in an ES-module process under a strict layout like a pnpm workspace with
 * `hoist=false`: langchain-vcr sits in the store next to its one peer, @langchain/core, and cannot
 * resolve @langchain/openai from where it is; the app package can (its own node_modules), and a
 * second package uses another copy of @langchain/openai (another version in the store). Both
 * copies' OpenAIEmbeddings must be reached: under replay_only an unrecorded embedQuery is a
 * VcrMissError with 0 requests, never a silent live call.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin } from "../helpers/built";
import { runChild } from "../helpers/child";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { tmpDir } from "../helpers/tmp";

const ROOT = path.resolve(__dirname, "../..");
const NM = path.join(ROOT, "node_modules");

/** root/node_modules/.pnpm/<entry>/node_modules/<name>, a link to `target` (or a copy when `copy`). */
function storeEntry(root: string, entry: string, name: string, target: string, copy = false): string {
  const dir = path.join(root, "node_modules/.pnpm", entry, "node_modules", name);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (copy) fs.cpSync(target, dir, { recursive: true, dereference: true });
  else fs.symlinkSync(target, dir, "dir");
  return dir;
}

function link(from: string, to: string): void {
  fs.mkdirSync(path.dirname(from), { recursive: true });
  fs.symlinkSync(to, from, "dir");
}

const SCRIPT = `
import { Vcr } from "langchain-vcr";
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
vcr.install();
const report = {};
for (const [copy, from] of [["app", "@langchain/openai"], ["other", process.env.OTHER_COPY]]) {
  const { OpenAIEmbeddings } = await import(from);
  const e = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "k", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });
  report[copy] = await e.embedQuery("never recorded (" + copy + ")").then(() => "live answer", (err) => err.code ?? err.message);
}
console.log(JSON.stringify(report));
`;

describe("vcr.install() under a strict node_modules layout (a pnpm workspace with hoist=false)", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let fixtures: string;
  useFakeAndDir((f, d) => ((fake = f), (fixtures = d)));

  it("reaches the app's own copy of an integration and every other copy in the store: replay_only misses, 0 requests", async () => {
    builtBin();
    const root = tmpDir();
    // langchain-vcr as installed from its tarball: package.json and dist, with its peer beside it
    const vcrDir = path.join(root, "node_modules/.pnpm/langchain-vcr@0.1.0/node_modules/langchain-vcr");
    fs.mkdirSync(vcrDir, { recursive: true });
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(vcrDir, "package.json"));
    fs.cpSync(path.join(ROOT, "dist"), path.join(vcrDir, "dist"), { recursive: true });
    storeEntry(root, "langchain-vcr@0.1.0", "@langchain/core", path.join(NM, "@langchain/core"));
    const appCopy = storeEntry(root, "@langchain+openai@1.6.0", "@langchain/openai", path.join(NM, "@langchain/openai"));
    // another version: a copy of the package whose dependencies resolve from this repository
    const otherCopy = storeEntry(root, "@langchain+openai@1.5.0", "@langchain/openai", path.join(NM, "@langchain/openai"), true);
    const pkg = JSON.parse(fs.readFileSync(path.join(otherCopy, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }))
      link(path.join(path.dirname(path.dirname(otherCopy)), dep), path.join(NM, dep));
    const app = path.join(root, "packages/app");
    link(path.join(app, "node_modules/langchain-vcr"), vcrDir);
    link(path.join(app, "node_modules/@langchain/openai"), appCopy);
    fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    fs.writeFileSync(path.join(app, "repro.mjs"), SCRIPT);

    // the layout is what the test says: langchain-vcr alone cannot resolve the integration
    const probe = await runChild(
      process.execPath,
      ["-e", `try { require.resolve("@langchain/openai", { paths: [${JSON.stringify(vcrDir)}] }); console.log("found") } catch { console.log("not found") }`],
      {
        cwd: root,
        env: { ...process.env, NODE_PATH: "" },
      },
    );
    expect(probe.stdout.trim()).to.equal("not found");

    const out = await runChild(process.execPath, ["repro.mjs"], {
      cwd: app,
      env: {
        ...process.env,
        NODE_PATH: "",
        FIXTURE_DIR: fixtures,
        FAKE_URL: fake.openaiBaseURL,
        OTHER_COPY: path.join(otherCopy, "dist/index.js"),
        LANGCHAIN_VCR_MODE: "",
      },
      timeoutMs: 45000,
    });
    expect(out.status, out.stdout + out.stderr).to.equal(0);
    expect(JSON.parse(out.stdout.trim().split("\n").pop()!)).to.deep.equal({ app: "VCR_MISS", other: "VCR_MISS" });
    expect(fake.count()).to.equal(0);
  });
});
