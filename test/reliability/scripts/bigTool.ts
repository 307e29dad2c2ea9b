/**
 * A tool with large results, shared by the crash child (which records it) and the crash
 * tests (which replay it): result `i` is `size` characters, different for every `i`.
 */
import { tool } from "langchain";
import { z } from "zod";
import type { Vcr } from "../../../src/index";

export function bigResult(i: number, size: number): string {
  const head = `result ${i}:`;
  return head + String.fromCharCode(97 + (i % 26)).repeat(Math.max(0, size - head.length));
}

/** `vcr.tool` around a tool whose body returns `bigResult(i, size)`; `onRun` counts body runs. */
export function bigTool(vcr: Vcr, size: number, onRun: () => void = () => {}) {
  return vcr.tool(
    tool(
      async ({ i }: { i: number }) => {
        onRun();
        return bigResult(i, size);
      },
      { name: "big_report", description: "A large report", schema: z.object({ i: z.number() }) },
    ),
  );
}
