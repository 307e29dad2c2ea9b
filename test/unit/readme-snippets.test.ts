/**
 * The README's code can't rot: every code block preceded by a marker
 * `<!-- snippet: examples/<file>#<name> -->` must equal, line for line, the region of that
 * example marked `// #region <name>` … `// #endregion <name>` (common indentation removed).
 * The examples run in `npm test` (`npm run examples`), so every quoted line is run code.
 * Also: every region in every example is well formed (opened once, closed, names unique).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "chai";

const ROOT = path.join(__dirname, "..", "..");
const README = path.join(ROOT, "README.md");
const EXAMPLES = path.join(ROOT, "examples");

interface SnippetRef {
  file: string;
  name: string;
  /** 1-based line of the marker in README.md */
  line: number;
  code: string;
}

const MARKER = /^<!--\s*snippet:\s*(\S+?)#(\S+)\s*-->\s*$/;

/** The README's snippet markers, each with the fenced code block that follows it. */
function readmeSnippets(markdown: string): SnippetRef[] {
  const lines = markdown.split(/\r?\n/);
  const out: SnippetRef[] = [];
  lines.forEach((text, i) => {
    const m = MARKER.exec(text.trim());
    if (!m) return;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const fence = /^(```+|~~~+)/.exec(lines[j] ?? "");
    if (!fence) throw new Error(`README.md:${i + 1}: the snippet marker for ${m[1]}#${m[2]} is not followed by a fenced code block`);
    const body: string[] = [];
    let k = j + 1;
    while (k < lines.length && !lines[k].startsWith(fence[1])) body.push(lines[k++]);
    if (k >= lines.length) throw new Error(`README.md:${j + 1}: unclosed code block after the snippet marker for ${m[1]}#${m[2]}`);
    out.push({ file: m[1], name: m[2], line: i + 1, code: body.join("\n") });
  });
  return out;
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
    if (a[i] !== b[i]) return `line ${i + 1} of the snippet:\n    example: ${JSON.stringify(a[i] ?? "(none)")}\n    README:  ${JSON.stringify(b[i] ?? "(none)")}`;
  }
  return "(no difference)";
}

function exampleFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? exampleFiles(full) : e.name.endsWith(".ts") ? [full] : [];
  });
}

describe("README snippets are taken verbatim from the examples", () => {
  it("every example file's regions are well formed", () => {
    const files = exampleFiles(EXAMPLES);
    expect(files.length).to.be.greaterThan(5);
    let count = 0;
    for (const file of files) count += regions(fs.readFileSync(file, "utf8"), path.relative(ROOT, file)).size;
    expect(count).to.be.greaterThan(3);
  });

  it("parses snippet markers and regions (self-check), and README.md has markers", () => {
    const md = ["x", "<!-- snippet: examples/a.spec.ts#one -->", "", "```ts", "  a();", "b();", "```"].join("\n");
    expect(readmeSnippets(md)).to.deep.equal([{ file: "examples/a.spec.ts", name: "one", line: 2, code: "  a();\nb();" }]);
    const src = ["describe(() => {", "  // #region one", "  a();", "", "    b();", "  // #endregion one", "});"].join("\n");
    expect(regions(src, "a.ts").get("one")).to.equal("a();\n\n  b();");
    expect(() => regions("// #region x\n", "a.ts")).to.throw('region "x" is never closed');
    expect(readmeSnippets(fs.readFileSync(README, "utf8")).length).to.be.greaterThan(0);
  });

  const snippets = fs.existsSync(README) ? readmeSnippets(fs.readFileSync(README, "utf8")) : [];
  for (const s of snippets) {
    it(`README.md:${s.line} equals ${s.file}#${s.name}`, () => {
      const file = path.join(ROOT, s.file);
      expect(s.file, `README.md:${s.line}: snippets must come from the examples, which run in npm run examples (examples/**/*.ts)`).to.match(
        /^examples\/.+\.ts$/,
      );
      expect(fs.existsSync(file), `README.md:${s.line}: ${s.file} does not exist`).to.equal(true);
      const region = regions(fs.readFileSync(file, "utf8"), s.file).get(s.name);
      expect(region, `README.md:${s.line}: ${s.file} has no region "${s.name}" (mark it with // #region ${s.name} … // #endregion ${s.name})`).to.be.a(
        "string",
      );
      if (region !== s.code) {
        expect.fail(
          `README.md:${s.line}: the code block differs from ${s.file}#${s.name} at ${firstDifference(region!, s.code)}\n` +
            `  Copy the region into the README (the example is the one that runs), or change the example and re-run npm run examples.`,
        );
      }
    });
  }
});
