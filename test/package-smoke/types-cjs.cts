// Type-checked by test/integration/package.test.ts as a CommonJS TypeScript user (node16): the
// library's types must be the very @langchain/core classes the user's ESM models expect.
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { tool } from "langchain";
import { z } from "zod";
import {
  Vcr,
  withVcr,
  normalizers,
  isVcrError,
  VcrMissError,
  type VcrOptions,
  type Fixture,
  type FixtureProblem,
  type Normalizer,
  type Redactor,
} from "langchain-vcr";
import { mochaHooks } from "langchain-vcr/mocha";

const options: VcrOptions = { dir: "cassettes", normalizers: [normalizers.isoDate] satisfies Normalizer[] };
const redact: Redactor = (f: Fixture) => f;
const vcr = new Vcr({ ...options, redactors: [redact] });
const model = new ChatOpenAI({ model: "gpt-4o-mini", cache: vcr.cache });
const embeddings = vcr.embeddings(new OpenAIEmbeddings({ model: "text-embedding-3-small" }));
const add = tool(async ({ a, b }) => String(a + b), { name: "add", description: "Add", schema: z.object({ a: z.number(), b: z.number() }) });
const [wrapped] = vcr.tools([add]);
const problems: FixtureProblem[] = [];
export const used = [
  model,
  embeddings,
  wrapped,
  problems,
  mochaHooks,
  withVcr({ mode: "bypass" }, () => 1),
  isVcrError(new VcrMissError("m", { hash: "h", kind: "chat", request: {} })),
];
