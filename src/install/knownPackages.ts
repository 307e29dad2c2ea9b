/** The LangChain packages install() reaches by name (`integrations.ts`), and the vitest plugin checks vitest does not inline (`vitest/inlined.ts`). */

/** LangChain integrations that export Embeddings classes. */
export const KNOWN_INTEGRATIONS = [
  "@langchain/openai",
  "@langchain/ollama",
  "@langchain/google-genai",
  "@langchain/mistralai",
  "@langchain/cohere",
  "@langchain/aws",
] as const;

/**
 * Packages whose models or tools extend core's classes but export no Embeddings: only the copy of
 * core under each of their installed copies is patched (in an ES-module process nothing else would
 * reach it: a chat model from a pnpm store copy over a core of its own would answer live).
 */
export const CORE_USERS = ["@langchain/anthropic", "@langchain/groq", "langchain", "@langchain/langgraph"] as const;
