/**
 * Node 20 runs `--require` preloads in the module-loader hooks thread too (the one `module.register()`
 * starts: `--import tsx`, Yarn PnP's loader), so a CommonJS setup file's install() runs there as
 * well; what it cannot load there is not reported (src/install/hooksThread.ts). The check tells
 * that thread from the main thread and from a worker the program starts itself (vitest's threads).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { runChild } from "../helpers/child";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const ROOT = path.resolve(__dirname, "../..");

describe("the module-loader hooks thread (inLoaderHooksThread)", function () {
  this.timeout(30000);
  after(removeTmpDirs);

  it("is told apart from the main thread and from workers of the program's own, with and without workerData", async () => {
    const dir = tmpDir();
    // a thread's kind, known without what inLoaderHooksThread reads: the program's workers say so before the probe runs
    const probe = `const { inLoaderHooksThread } = require(${JSON.stringify(path.join(ROOT, "src/install/hooksThread.ts"))});
const where = require("node:worker_threads").isMainThread ? "main" : globalThis.programWorker ? "worker" : "hooks";
console.log("PROBE " + JSON.stringify({ where, hooks: inLoaderHooksThread() }));`;
    fs.writeFileSync(path.join(dir, "probe.cjs"), probe);
    fs.writeFileSync(path.join(dir, "hooks.mjs"), "export async function resolve(s, c, next) { return next(s, c); }\n");
    fs.writeFileSync(path.join(dir, "register.mjs"), `import { register } from "node:module";\nregister(new URL("./hooks.mjs", import.meta.url));\n`);
    fs.writeFileSync(
      path.join(dir, "main.mjs"),
      [
        `import { Worker } from "node:worker_threads";`,
        `const run = (options) => new Promise((resolve, reject) => new Worker(new URL("./worker.cjs", import.meta.url), { execArgv: [], ...options }).on("exit", resolve).on("error", reject));`,
        `await run({});`,
        `await run({ workerData: { pool: "threads" } });`,
        ``,
      ].join("\n"),
    );
    fs.writeFileSync(path.join(dir, "worker.cjs"), `globalThis.programWorker = true;\nrequire("ts-node/register/transpile-only");\nrequire("./probe.cjs");\n`);
    const out = await runChild(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", "--require", "./probe.cjs", "--import", "./register.mjs", "main.mjs"],
      {
        cwd: dir,
        env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, "tsconfig.json"), NODE_PATH: path.join(ROOT, "node_modules") },
      },
    );
    expect(out.status, out.stderr).to.equal(0);
    const seen = [...out.stdout.matchAll(/^PROBE (.+)$/gm)].map((m) => JSON.parse(m[1]) as { where: string; hooks: boolean });
    const count = (where: string) => seen.filter((p) => p.where === where).length;
    expect([count("main"), count("worker")], out.stdout).to.deep.equal([1, 2]);
    // Node 20 and 22 run the preloads in the hooks thread (measured: 20.20, 22.23); Node 24 does not always
    if (Number(process.versions.node.split(".")[0]) <= 22) expect(count("hooks"), out.stdout).to.equal(1);
    for (const p of seen) expect(p.hooks, JSON.stringify(p)).to.equal(p.where === "hooks");
  });
});
