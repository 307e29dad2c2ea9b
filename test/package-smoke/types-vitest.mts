// Type-checked by test/integration/package.test.ts: a TypeScript user's vitest.config.mts
// with the langchain-vcr plugin (ESM, node16 resolution).
import { defineConfig } from "vitest/config";
import langchainVcr from "langchain-vcr/vitest";

export default defineConfig({ plugins: [langchainVcr()] });
