/**
 * The project's `@langchain/langgraph`, for what a tool's replay must do through LangGraph itself
 * (raise its `interrupt()`, hand back its `Command`): as the working directory resolves it, else as
 * langchain-vcr does. Loaded once, on the first such replay; missing, a VcrConfigError names it.
 */
import * as path from "node:path";
import { createRequire } from "node:module";
import { VcrConfigError } from "../../errors";

let loaded: Record<string, unknown> | undefined;

/** The function or class `name` exported by the project's @langchain/langgraph; `needs`: what the fixture records and why replay needs it. */
export function langgraphExport<T>(name: string, needs: string): T {
  const tries: (() => unknown)[] = [
    () => createRequire(path.join(process.cwd(), "package.json"))("@langchain/langgraph"),
    () => require("@langchain/langgraph"), // written out: the ESM build defines require where it sees one called
  ];
  for (const load of tries) {
    if (loaded && typeof loaded[name] === "function") break;
    try {
      const mod = load() as Record<string, unknown>;
      if (typeof mod?.[name] === "function") loaded = mod;
    } catch {
      // the next place
    }
  }
  if (loaded && typeof loaded[name] === "function") return loaded[name] as T;
  throw new VcrConfigError(
    `${needs}, and @langchain/langgraph (its ${name} export) cannot be loaded from ${process.cwd()}.\n` +
      `  Fix: run the tests from the project that uses LangGraph, or install it there: npm install @langchain/langgraph`,
  );
}
