/**
 * Tiny consumer projects for install.runners.test.ts: each turns `vcr.install()` on from its
 * runner's setup file, as docs/zero-touch.md says, and has two test files that each call a
 * ChatOpenAI with no cache, an OpenAIEmbeddings and a tool with a ToolCall (printing
 * `RESULT <name> <answer> <tool runs>`). `langchain-vcr` resolves to this repository's build.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface RunnerProject {
  runner: string;
  files: Record<string, string>;
  /** argv after `node`. */
  command: (root: string) => string[];
}

const body = (name: string) => `
  const configuration = { baseURL: process.env.FAKE_URL };
  const chat = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "k", maxRetries: 0, configuration });
  let runs = 0;
  const weather = tool(async ({ city }) => (runs++, "sunny in " + city), { name: "get_weather", description: "Weather.", schema: z.object({ city: z.string() }) });
  const embeddings = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "k", maxRetries: 0, configuration });
  const answer = (await chat.invoke("hello from ${name}")).text;
  await weather.invoke({ type: "tool_call", id: "call_1", name: "get_weather", args: { city: "${name}" } });
  await embeddings.embedQuery("${name}");
  console.log("RESULT ${name} " + answer + " " + runs);
`;
const esmImports = `import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";\nimport { tool } from "@langchain/core/tools";\nimport { z } from "zod";\n`;
const cjsImports = `const { ChatOpenAI, OpenAIEmbeddings } = require("@langchain/openai");\nconst { tool } = require("@langchain/core/tools");\nconst { z } = require("zod");\n`;
const cjsSetup = `const { Vcr } = require("langchain-vcr");\nconst uninstall = new Vcr({ dir: process.env.FIXTURE_DIR }).install();\n`;

export const PROJECTS: RunnerProject[] = [
  {
    runner: "mocha (require)",
    files: {
      // mocha resolves a package name in `require` from its own folder, which here is not beside langchain-vcr: a path
      ".mocharc.json": JSON.stringify({ require: ["./node_modules/langchain-vcr/dist/cjs/mocha/index.js", "./test/vcr-setup.cjs"], spec: ["test/*.test.cjs"] }),
      "test/vcr-setup.cjs": cjsSetup,
      ...twoFiles("test/%.test.cjs", (n) => `${cjsImports}it("${n}", async () => {${body(n)}});\n`),
    },
    command: (root) => [path.join(root, "node_modules/mocha/bin/mocha.js")],
  },
  {
    runner: "vitest (setupFiles)",
    files: {
      "package.json": JSON.stringify({ name: "consumer", private: true, type: "module" }),
      "vitest.config.mjs": `export default { test: { setupFiles: ["./test/vcr-setup.mjs"], include: ["test/*.test.mjs"] } };\n`,
      "test/vcr-setup.mjs": `import { afterAll } from "vitest";\nimport { Vcr } from "langchain-vcr";\nconst uninstall = new Vcr({ dir: process.env.FIXTURE_DIR }).install();\nafterAll(() => uninstall());\n`,
      ...twoFiles("test/%.test.mjs", (n) => `import { test } from "vitest";\n${esmImports}test("${n}", async () => {${body(n)}});\n`),
    },
    command: (root) => [path.join(root, "node_modules/vitest/vitest.mjs"), "run"],
  },
  {
    runner: "jest (setupFilesAfterEnv)",
    files: {
      // testPathIgnorePatterns / haste: this project sits under node_modules/.cache, which jest skips by default
      "jest.config.js": `module.exports = { setupFilesAfterEnv: ["<rootDir>/test/vcr-setup.js"], testMatch: ["**/test/*.test.js"], testPathIgnorePatterns: [], haste: { retainAllFiles: true }, testEnvironment: "node" };\n`,
      // no afterAll(uninstall) (docs/zero-touch.md): jest loads it afresh for each test file, here both in one process
      "test/vcr-setup.js": cjsSetup,
      ...twoFiles("test/%.test.js", (n) => `${cjsImports}test("${n}", async () => {${body(n)}});\n`),
    },
    command: (root) => [path.join(root, "node_modules/jest/bin/jest.js"), "--rootDir", ".", "--runInBand"],
  },
  {
    runner: "node:test (--require)",
    files: {
      "test/vcr-setup.cjs": cjsSetup,
      ...twoFiles("test/%.test.cjs", (n) => `const { test } = require("node:test");\n${cjsImports}test("${n}", async () => {${body(n)}});\n`),
    },
    // the files by name: Node 22+ reads `--test test/` as a file named test, and Node 20's `--test` alone would run the setup file too
    command: () => ["--require", "./test/vcr-setup.cjs", "--test", "test/first.test.cjs", "test/second.test.cjs"],
  },
];

function twoFiles(pattern: string, make: (name: string) => string): Record<string, string> {
  return Object.fromEntries(["first", "second"].map((n) => [pattern.replace("%", n), make(n)]));
}

/** Writes `project` under `dir`, with node_modules/langchain-vcr linked to `root`. */
export function writeProject(project: RunnerProject, dir: string, root: string): void {
  for (const [file, text] of Object.entries(project.files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.symlinkSync(root, path.join(dir, "node_modules", "langchain-vcr"));
}
