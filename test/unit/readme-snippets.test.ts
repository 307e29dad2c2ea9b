/**
 * The documentation's code can't rot:
 * - every code block preceded by `<!-- snippet: examples/<file>#<name> -->` in README.md,
 *   CONTRIBUTING.md, docs/*.md or an examples README must equal, line for line, the region of
 *   that example marked `// #region <name>` … `// #endregion <name>` (common indentation
 *   removed). The examples run in `npm test` (`npm run examples`), so every quoted line is run code;
 * - every `<!-- recipe … -->` block names a known recipe, and every recipe the README promises has
 *   its install/test commands and a test file (test/recipes/ builds and runs them: npm run test:recipes);
 * - every docs/ page is linked from the README, and every relative link of the docs reaches a file
 *   (and a heading, when it names one).
 * Also: every region in every example is well formed (opened once, closed, names unique).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "chai";

import { allBlocks, anchors, brokenLinks, documentationFiles, headingAnchor, markedBlocks, recipes, RECIPES, relativeLinks, ROOT } from "../recipes/blocks";

const README = path.join(ROOT, "README.md");
const EXAMPLES = path.join(ROOT, "examples");

interface SnippetRef {
  doc: string;
  file: string;
  name: string;
  /** 1-based line of the marker in its doc */
  line: number;
  code: string;
}

function asSnippet(b: { doc: string; line: number; marker: string; code: string }): SnippetRef {
  const cut = b.marker.lastIndexOf("#");
  return { doc: b.doc, file: b.marker.slice(0, cut), name: b.marker.slice(cut + 1), line: b.line, code: b.code };
}

function readmeSnippets(markdown: string, doc = "README.md"): SnippetRef[] {
  return markedBlocks(markdown, doc, "snippet").map(asSnippet);
}

/** Every `// #region name` … `// #endregion [name]` of a source file, dedented. */
function regions(source: string, where: string): Map<string, string> {
  const lines = source.split(/\r?\n/);
  const found = new Map<string, string>();
  const open: { name: string; start: number }[] = [];
  lines.forEach((text, i) => {
    const start = /^\s*\/\/\s*#region\s+(\S+)\s*$/.exec(text);
    const end = /^\s*\/\/\s*#endregion(?:\s+(\S+))?\s*$/.exec(text);
    if (start) {
      if (found.has(start[1]) || open.some((o) => o.name === start[1])) throw new Error(`${where}:${i + 1}: region "${start[1]}" is defined twice`);
      open.push({ name: start[1], start: i + 1 });
    } else if (end) {
      const top = open.pop();
      if (!top) throw new Error(`${where}:${i + 1}: #endregion without a #region`);
      if (end[1] && end[1] !== top.name) throw new Error(`${where}:${i + 1}: #endregion ${end[1]} closes region "${top.name}"`);
      const body = lines.slice(top.start, i).filter((l) => !/^\s*\/\/\s*#(end)?region\b/.test(l));
      found.set(top.name, dedent(body).join("\n"));
    }
  });
  if (open.length) throw new Error(`${where}: region "${open[open.length - 1].name}" is never closed`);
  return found;
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => (l.trim() === "" ? "" : l.slice(cut)));
}

function firstDifference(expected: string, actual: string): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i])
      return `line ${i + 1} of the snippet:\n    example: ${JSON.stringify(a[i] ?? "(none)")}\n    doc:     ${JSON.stringify(b[i] ?? "(none)")}`;
  }
  return "(no difference)";
}

function exampleFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? exampleFiles(full) : e.name.endsWith(".ts") ? [full] : [];
  });
}

describe("documentation snippets are taken verbatim from the examples", () => {
  it("every example file's regions are well formed", () => {
    const files = exampleFiles(EXAMPLES);
    expect(files.length).to.be.greaterThan(5);
    let count = 0;
    for (const file of files) count += regions(fs.readFileSync(file, "utf8"), path.relative(ROOT, file)).size;
    expect(count).to.be.greaterThan(3);
  });

  it("parses snippet markers and regions (self-check), and the docs have snippet markers", () => {
    const md = ["x", "<!-- snippet: examples/a.spec.ts#one -->", "", "```ts", "  a();", "b();", "```"].join("\n");
    expect(readmeSnippets(md)).to.deep.equal([{ doc: "README.md", file: "examples/a.spec.ts", name: "one", line: 2, code: "  a();\nb();" }]);
    const src = ["describe(() => {", "  // #region one", "  a();", "", "    b();", "  // #endregion one", "});"].join("\n");
    expect(regions(src, "a.ts").get("one")).to.equal("a();\n\n  b();");
    expect(() => regions("// #region x\n", "a.ts")).to.throw('region "x" is never closed');
    expect(allBlocks("snippet").length).to.be.greaterThan(3);
  });

  const snippets = allBlocks("snippet").map(asSnippet);
  for (const s of snippets) {
    it(`${s.doc}:${s.line} equals ${s.file}#${s.name}`, () => {
      const file = path.join(ROOT, s.file);
      expect(s.file, `${s.doc}:${s.line}: snippets must come from the examples, which run in npm run examples (examples/**/*.ts)`).to.match(
        /^examples\/.+\.ts$/,
      );
      expect(fs.existsSync(file), `${s.doc}:${s.line}: ${s.file} does not exist`).to.equal(true);
      const region = regions(fs.readFileSync(file, "utf8"), s.file).get(s.name);
      expect(region, `${s.doc}:${s.line}: ${s.file} has no region "${s.name}" (mark it with // #region ${s.name} … // #endregion ${s.name})`).to.be.a("string");
      if (region !== s.code) {
        expect.fail(
          `${s.doc}:${s.line}: the code block differs from ${s.file}#${s.name} at ${firstDifference(region!, s.code)}\n` +
            `  Copy the region into ${s.doc} (the example is the one that runs), or change the example and re-run npm run examples.`,
        );
      }
    });
  }
});

describe("documentation recipes are complete, and every docs page is linked", () => {
  it("parses recipe markers (self-check)", () => {
    const md = [
      "<!-- recipe a-x,b-y: test/x.ts -->",
      "```ts",
      "x();",
      "```",
      "<!-- recipe a-x: shell -->",
      "```sh",
      "npm i -D langchain-vcr",
      "npx mocha",
      "```",
    ].join("\n");
    const blocks = markedBlocks(md, "doc.md", "recipe");
    expect(blocks.map((b) => b.marker)).to.deep.equal(["a-x,b-y: test/x.ts", "a-x: shell"]);
    expect(() => recipes(blocks)).to.throw('doc.md:1: unknown recipe "a-x"');
    const good = markedBlocks(md.replace(/a-x/g, "vitest").replace("b-y", "jest"), "doc.md", "recipe");
    const parsed = recipes(good);
    expect(parsed.get("vitest")!.install).to.deep.equal(["npm i -D langchain-vcr"]);
    expect(parsed.get("vitest")!.test).to.equal("npx mocha");
    expect(parsed.get("jest")!.files.get("test/x.ts")).to.equal("x();\n");
    const twoTests = markedBlocks(md.replace(/a-x/g, "vitest").replace("b-y", "jest").replace("npx mocha", "npx mocha\nnpx vitest"), "doc.md", "recipe");
    expect(() => recipes(twoTests)).to.throw("exactly one test command");
    const labelled = markedBlocks("`test/x.ts`: <!-- recipe vitest: test/x.ts -->\n```ts\nx();\n```", "doc.md", "recipe");
    expect(labelled.map((b) => b.marker)).to.deep.equal(["vitest: test/x.ts"]);
    expect(() => markedBlocks("`test/y.ts`: <!-- recipe vitest: test/x.ts -->\n```ts\nx();\n```", "doc.md", "recipe")).to.throw(
      "labelled `test/y.ts` but writes test/x.ts",
    );
  });

  const all = recipes();
  for (const id of RECIPES) {
    it(`recipe ${id} has its commands and a test file in the documentation`, () => {
      const r = all.get(id);
      expect(r, `no <!-- recipe ${id}: … --> block in README.md or docs/*.md`).to.not.equal(undefined);
      expect(r!.test, `recipe ${id} has no <!-- recipe ${id}: shell --> block`).to.not.equal("");
      expect(
        [...r!.files.keys()].some((f) => /^test\/.+\.(ts|js|mjs|cjs)$/.test(f)),
        `recipe ${id} has no test/… file`,
      ).to.equal(true);
    });
  }

  it("every docs/ page is linked from README.md", () => {
    const readme = fs.readFileSync(README, "utf8");
    const pages = fs.readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
    expect(pages.length).to.be.greaterThan(5);
    const unlinked = pages.filter((p) => !readme.includes(`(docs/${p})`) && !readme.includes(`(docs/${p}#`));
    expect(unlinked, "docs pages the README does not link").to.deep.equal([]);
  });

  it("parses links and heading anchors (self-check)", () => {
    expect(headingAnchor("`vcr.install()` or explicit adapters")).to.equal("vcrinstall-or-explicit-adapters");
    expect(headingAnchor("Gotcha: a tool miss inside `createAgent`")).to.equal("gotcha-a-tool-miss-inside-createagent");
    const md = ["# Title", "[a](docs/x.md#part) `[b](no.md)` [c](https://x.org)", "```", "[d](no.md)", "## Not a heading", "```"].join("\n");
    expect(relativeLinks(md, "R.md")).to.deep.equal([{ doc: "R.md", line: 2, target: "docs/x.md#part" }]);
    expect([...anchors(md)]).to.deep.equal(["title"]);
  });

  it("every relative link of the documentation reaches a file, and a heading when it names one", () => {
    const { broken, count } = brokenLinks(ROOT, documentationFiles());
    expect(count).to.be.greaterThan(20);
    expect(broken, "broken links").to.deep.equal([]);
  });
});
