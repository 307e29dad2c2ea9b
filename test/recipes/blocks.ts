/**
 * The marked code blocks of the documentation, parsed one way for every test that reads them:
 *
 * - `<!-- snippet: examples/<file>#<name> -->` + a fenced block: quoted from an example's region
 *   (test/unit/readme-snippets.test.ts checks it, offline);
 * - `<!-- recipe <id>[,<id>…]: <file> -->` + a fenced block: that file of each named recipe's
 *   consumer project, and `<!-- recipe <id>: shell -->` its install and test commands
 *   (test/recipes/recipes.test.ts builds and runs the projects).
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = path.join(__dirname, "..", "..");

/**
 * The recipes the README promises, each one a consumer project tested by test/recipes/ (`bun`: Bun's test runner, no plugin;
 * `node-test-ts`: node's own TypeScript, Node 22.18+; `vitest-install`: the README's quick start).
 */
export const RECIPES = ["mocha-esm", "mocha-cjs", "vitest", "vitest-install", "jest", "node-test", "node-test-ts", "node-test-js", "bun"] as const;
export type RecipeId = (typeof RECIPES)[number];

export interface MarkedBlock {
  /** the documentation file, relative to the repository root */
  doc: string;
  /** 1-based line of the marker */
  line: number;
  /** the marker's text after `snippet:` or `recipe` */
  marker: string;
  code: string;
}

const SNIPPET = /^<!--\s*snippet:\s*(\S+?#\S+)\s*-->$/;
/** A recipe marker, optionally after the file's visible name: "`.mocharc.json`: <!-- recipe mocha-esm: .mocharc.json -->". */
const RECIPE = /^(?:`([^`]+)`:?\s*)?<!--\s*recipe\s+(\S+:\s*\S+)\s*-->$/;

/** Every marked block of one markdown text: markers of `kind`, each with the fenced block after it. */
export function markedBlocks(markdown: string, doc: string, kind: "snippet" | "recipe"): MarkedBlock[] {
  const lines = markdown.split(/\r?\n/);
  const pattern = kind === "snippet" ? SNIPPET : RECIPE;
  const out: MarkedBlock[] = [];
  lines.forEach((text, i) => {
    const found = pattern.exec(text.trim());
    if (!found) return;
    // a recipe marker's visible label, when it has one, must name the file the marker writes
    const m = kind === "recipe" ? [found[0], found[2]] : found;
    if (kind === "recipe" && found[1] !== undefined && found[1] !== found[2].split(/:\s*/)[1]) {
      throw new Error(`${doc}:${i + 1}: the recipe block is labelled \`${found[1]}\` but writes ${found[2].split(/:\s*/)[1]}`);
    }
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === "") j++;
    const fence = /^(```+|~~~+)/.exec(lines[j] ?? "");
    if (!fence) throw new Error(`${doc}:${i + 1}: the ${kind} marker "${m[1]}" is not followed by a fenced code block`);
    const body: string[] = [];
    let k = j + 1;
    while (k < lines.length && !lines[k].startsWith(fence[1])) body.push(lines[k++]);
    if (k >= lines.length) throw new Error(`${doc}:${j + 1}: unclosed code block after the ${kind} marker "${m[1]}"`);
    out.push({ doc, line: i + 1, marker: m[1], code: body.join("\n") });
  });
  return out;
}

/** The user documentation: README.md, CONTRIBUTING.md, docs/*.md and examples' README files, relative paths. */
export function documentationFiles(): string[] {
  const docsDir = path.join(ROOT, "docs");
  const pages = fs.existsSync(docsDir)
    ? fs
        .readdirSync(docsDir)
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`)
    : [];
  const exampleReadmes = fs
    .readdirSync(path.join(ROOT, "examples"), { recursive: true, encoding: "utf8" })
    .filter((f) => path.basename(f) === "README.md")
    .map((f) => `examples/${f}`);
  return ["README.md", "CONTRIBUTING.md", ...pages.sort(), ...exampleReadmes.sort()].filter((f) => fs.existsSync(path.join(ROOT, f)));
}

export function allBlocks(kind: "snippet" | "recipe"): MarkedBlock[] {
  return documentationFiles().flatMap((doc) => markedBlocks(fs.readFileSync(path.join(ROOT, doc), "utf8"), doc, kind));
}

export interface Recipe {
  id: RecipeId;
  /** project-relative path → content (the documented block, verbatim, plus a final newline) */
  files: Map<string, string>;
  /** the documented shell block's lines: `npm install …` line(s), then the one test command */
  install: string[];
  test: string;
  /** where each file came from, for messages: "README.md:12" */
  sources: Map<string, string>;
}

/**
 * The recipes as the documentation writes them. Throws, naming the doc and line, on a marker
 * that names an unknown recipe, a file documented twice for one recipe, or a shell block that is
 * not `npm install …` lines followed by exactly one test command.
 */
export function recipes(blocks: MarkedBlock[] = allBlocks("recipe")): Map<RecipeId, Recipe> {
  const out = new Map<RecipeId, Recipe>();
  for (const b of blocks) {
    const [ids, file] = b.marker.split(/:\s*/);
    for (const id of ids.split(",")) {
      if (!(RECIPES as readonly string[]).includes(id)) throw new Error(`${b.doc}:${b.line}: unknown recipe "${id}" (known: ${RECIPES.join(", ")})`);
      const r = out.get(id as RecipeId) ?? { id: id as RecipeId, files: new Map(), install: [], test: "", sources: new Map() };
      out.set(r.id, r);
      const where = `${b.doc}:${b.line}`;
      if (r.sources.has(file)) throw new Error(`${where}: recipe ${id} already has ${file} (from ${r.sources.get(file)})`);
      r.sources.set(file, where);
      if (file !== "shell") {
        r.files.set(file, b.code + "\n");
        continue;
      }
      const lines = b.code
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith("#"));
      r.install = lines.filter((l) => /^npm (install|i)\b/.test(l));
      const rest = lines.filter((l) => !/^npm (install|i)\b/.test(l));
      if (r.install.length === 0 || rest.length !== 1 || lines.indexOf(rest[0]) < r.install.length) {
        throw new Error(`${where}: a recipe's shell block is its npm install line(s) followed by exactly one test command`);
      }
      if (!r.install.some((l) => /\slangchain-vcr(\s|$)/.test(l))) throw new Error(`${where}: recipe ${id} never installs langchain-vcr`);
      r.test = rest[0];
    }
  }
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

export interface DocLink {
  doc: string;
  line: number;
  target: string;
}

/** The relative links (`[text](target)`) of a markdown text, outside code blocks and code spans. */
export function relativeLinks(markdown: string, doc: string): DocLink[] {
  const out: DocLink[] = [];
  let fenced = false;
  markdown.split(/\r?\n/).forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const m of text.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z][a-z0-9+.-]*:/i.test(m[1])) out.push({ doc, line: i + 1, target: m[1] });
    }
  });
  return out;
}

/** The anchors of a markdown text's headings (outside code blocks). */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const text of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    const h = !fenced && /^#{1,6}\s+(.*)$/.exec(text);
    if (h) out.add(headingAnchor(h[1]));
  }
  return out;
}

/**
 * The relative links of `docs` (paths under `root`) that reach no file under `root`, or no heading
 * of it when they name one; `count`: the links checked.
 */
export function brokenLinks(root: string, docs: readonly string[]): { broken: string[]; count: number } {
  const broken: string[] = [];
  let count = 0;
  for (const doc of docs) {
    for (const link of relativeLinks(fs.readFileSync(path.join(root, doc), "utf8"), doc)) {
      count++;
      const [file, anchor] = link.target.split("#");
      const target = file ? path.join(root, path.dirname(doc), file) : path.join(root, doc);
      if (!target.startsWith(root + path.sep) || !fs.existsSync(target)) broken.push(`${doc}:${link.line}: ${link.target} (no such file)`);
      else if (anchor && target.endsWith(".md") && !anchors(fs.readFileSync(target, "utf8")).has(anchor)) {
        broken.push(`${doc}:${link.line}: ${link.target} (no heading #${anchor} in ${path.relative(root, target)})`);
      }
    }
  }
  return { broken, count };
}
