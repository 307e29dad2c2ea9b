// Builds dist/: the CommonJS build with types (tsc), then the same sources as ES modules
// (tsc again) with thin ESM entry points. Each build imports its own copy of @langchain/core
// and patches it; a process that loads both builds (a CommonJS runner plugin, ESM test files)
// shares one per-test scope, ledger and call registry through globalThis (src/processWide.ts).
import { execFileSync } from "node:child_process";
import { buildSync } from "esbuild";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
// The CommonJS types (tsc); the code is esbuild's, below
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json"), "--emitDeclarationOnly"], {
  stdio: "inherit",
});

// The CommonJS entries, each bundled into one file by esbuild from the TypeScript sources
// (@langchain/* and every other package stay external), as the ESM bundle is: one scope, direct
// calls between modules. Bundling tsc's CommonJS output instead kept a wrapper, an exports
// object and a `(0, mod.fn)()` call per module (285 KB against 190 KB for the main entry), and
// `require("langchain-vcr")` took ~40 % longer (median 22.5 → 13.2 ms over 25 alternated
// processes); ~84 separate module files took longer still. A process that loads two entries (a
// runner plugin and the main entry) holds two copies of the modules they share, and they share
// the per-test scope, ledger and call registry through globalThis (src/processWide.ts), as a
// CommonJS plugin and ESM test files do. The CLI (`cli/bin`) is one bundle too: the package ships
// no other CommonJS code, only tsc's declarations beside the bundles. Each bundle sits where its
// entry's module would, so its `__dirname` is the entry's.
const CJS_ENTRIES = ["index", "mocha/index", "vitest/index", "jest/index", "jest/esm", "jest/reporter", "node-test/index", "cli/bin"];
for (const entry of CJS_ENTRIES) {
  buildSync({
    entryPoints: [join(root, "src", entry + ".ts")],
    outfile: join(dist, "cjs", entry + ".js"),
    allowOverwrite: true,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    packages: "external",
    tsconfig: join(root, "tsconfig.build.json"),
    logLevel: "warning",
  });
  plainBuiltins(join(dist, "cjs", entry + ".js"));
}
const bin = join(dist, "cjs/cli/bin.js");
if (!readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")) throw new Error(`build: ${bin} lost src/cli/bin.ts's #! line`);
chmodSync(bin, 0o755);

/**
 * `import * as fs from "node:fs"` becomes `__toESM(require("node:fs"))` in a CommonJS bundle: a
 * new object with a getter per member of the module (fs has ~100), made once per importing
 * module (~30 in the main entry: ~3 ms of `require("langchain-vcr")`), and a getter call on
 * every `fs.readFileSync`. For a namespace import of a Node built-in the module itself serves:
 * the copy differs from it only by a `default` member, which only a default import reads
 * (`import Module from "node:module"`), so a name whose `.default` the bundle reads keeps its copy.
 */
function plainBuiltins(file) {
  const text = readFileSync(file, "utf8");
  const plain = text.replace(/var (\w+) = __toESM\(require\("(node:[\w/]+)"\)\);/g, (all, name, mod) =>
    new RegExp(`\\b${name}\\.default\\b`).test(text) ? all : `var ${name} = require("${mod}");`,
  );
  writeFileSync(file, plain);
}

const esm = join(dist, "esm");
mkdirSync(esm, { recursive: true });
/** The ESM build's modules before bundling (removed at the end). */
const modules = join(dist, ".esm-modules");

// The ESM build: the same sources compiled again as ES modules, so an ESM process loads the
// ESM copy of @langchain/core and never dist/cjs (nor core's CommonJS copy); then bundled
// (esbuild, code splitting over the entries: one copy of each module) into dist/esm/bundle,
// because an ES module costs more to load than a CommonJS one: ~75 separate files added ~36 ms
// to `import`, the bundle ~13 ms.
execFileSync(
  process.execPath,
  [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.esm.json")], // jest is CommonJS only: src/jest is left out
  { stdio: "inherit" },
);
writeFileSync(join(esm, "package.json"), JSON.stringify({ type: "module" }) + "\n");
writeFileSync(join(modules, "package.json"), JSON.stringify({ type: "module" }) + "\n");
// the one flag that tells the two builds apart (src/processWide.ts)
const flagFile = join(modules, "processWide.js");
const flagged = readFileSync(flagFile, "utf8").replace("const ESM_BUILD = false;", "const ESM_BUILD = true;");
if (!flagged.includes("const ESM_BUILD = true;")) throw new Error(`build: no "const ESM_BUILD = false;" in ${flagFile}`);
writeFileSync(flagFile, flagged);
for (const file of readdirSync(modules, { recursive: true })
  .map((f) => join(modules, f))
  .filter((f) => f.endsWith(".js"))) {
  writeFileSync(file, esmShims(fullSpecifiers(file, readFileSync(file, "utf8"), ".js")));
}
// Every bundle file sits in dist/esm/bundle, one level below dist/esm, as the modules did below
// dist/cjs: paths built from __dirname (the vitest setup file's) stay right.
const BUNDLED = { index: "index.js", mocha: "mocha/index.js", vitest: "vitest/index.js", "vitest-hooks": "vitest/setup.js" };
buildSync({
  entryPoints: Object.fromEntries(Object.entries(BUNDLED).map(([name, file]) => [name, join(modules, file)])),
  outdir: join(esm, "bundle"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
rmSync(modules, { recursive: true, force: true });

/** ESM resolution wants full relative specifiers: "./store/store" → "./store/store.js" (or "/index.js"). */
function fullSpecifiers(file, text, ext) {
  return text.replace(/(from\s+|import\s*\(\s*|import\s+)(["'])(\.{1,2}\/[^"']*)\2/g, (all, lead, q, spec) => {
    if (spec.endsWith(".js")) return all;
    const base = join(dirname(file), spec);
    const full = existsSync(base + ext) ? spec + ".js" : existsSync(join(base, "index" + ext)) ? spec + "/index.js" : null;
    if (!full) throw new Error(`build: cannot resolve ${spec} in ${file}`);
    return lead + q + full + q;
  });
}

/** The CommonJS names a module of ours uses (`require` for JSON and lazy loads, `__dirname`), defined from `import.meta.url`. */
function esmShims(text) {
  const lines = [];
  if (/\brequire\s*[.(]/.test(text)) {
    lines.push('import { createRequire as __vcrCreateRequire } from "node:module";', "const require = __vcrCreateRequire(import.meta.url);");
  }
  if (/\b__(dirname|filename)\b/.test(text)) {
    lines.push(
      'import { fileURLToPath as __vcrFileURLToPath } from "node:url";',
      'import { dirname as __vcrDirname } from "node:path";',
      "const __filename = __vcrFileURLToPath(import.meta.url);",
      "const __dirname = __vcrDirname(__filename);",
    );
  }
  return lines.length ? lines.join("\n") + "\n" + text : text;
}

/** `dist/esm/<name>.mjs` (+ `.d.mts`): the package entry for `import`, its bundle and the types of module `source`. */
function entry(name, source) {
  const bundle = `bundle/${name}.js`;
  const hasDefault = /^export default |^export \{[^}]*\bas default\b/m.test(readFileSync(join(esm, bundle), "utf8"));
  const lines = ["// Generated by scripts/build.mjs: the ESM entry (ES modules only: it never loads dist/cjs).", `export * from "./${bundle}";`];
  if (hasDefault) lines.push(`export { default } from "./${bundle}";`);
  writeFileSync(join(esm, `${name}.mjs`), lines.join("\n") + "\n");
  writeFileSync(join(esm, `${name}.d.mts`), `export * from "./types/${source}";\n` + (hasDefault ? `export { default } from "./types/${source}";\n` : ""));
}
// Types for `import`: the same declarations, in a folder marked "type": "module", so a
// TypeScript ESM project (node16/nodenext) resolves @langchain/core to its ESM types there
// and our types are the very classes its models expect.
const esmTypes = join(esm, "types");
cpSync(join(dist, "cjs"), esmTypes, { recursive: true, filter: (src) => statSync(src).isDirectory() || src.endsWith(".d.ts") });
// ESM resolution wants full relative specifiers: "./store/store" → "./store/store.js" (or "/index.js").
for (const file of readdirSync(esmTypes, { recursive: true })
  .map((f) => join(esmTypes, f))
  .filter((f) => f.endsWith(".d.ts"))) {
  writeFileSync(file, fullSpecifiers(file, readFileSync(file, "utf8"), ".d.ts"));
}
writeFileSync(join(esmTypes, "package.json"), JSON.stringify({ type: "module" }) + "\n");

entry("index", "index.js");
entry("mocha", "mocha/index.js");
entry("vitest", "vitest/index.js");
// vitest's setup file: it hands vitest's hooks to the ESM build (the copy ESM test files import)
writeFileSync(
  join(esm, "vitest-setup.mjs"),
  [
    "// Generated by scripts/build.mjs: the setup file the langchain-vcr vitest plugin adds.",
    'import { afterAll, beforeAll, beforeEach } from "vitest";',
    'import { installVitestHooks } from "./bundle/vitest-hooks.js";',
    "installVitestHooks({ afterAll, beforeAll, beforeEach });",
    "",
  ].join("\n"),
);
// and the one it adds after the project's own: their install()'s import() settles before the test file's imports
writeFileSync(
  join(esm, "vitest-settle.mjs"),
  [
    "// Generated by scripts/build.mjs: the setup file the langchain-vcr vitest plugin adds after the project's own.",
    'import { installSettled } from "./bundle/vitest-hooks.js";',
    "await installSettled();",
    "",
  ].join("\n"),
);
console.log("built dist/cjs and dist/esm");
