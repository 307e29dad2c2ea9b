/**
 * What every bench section shares: the platform `fetch` captured before nock patches the
 * global one (so only the nock contender pays for nock's interceptors), temp directories
 * removed at exit, and the real clients pointed at the loopback fake.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import type { FakeProvider } from "../helpers/fakeProvider";
import { interceptNotes } from "../helpers/notes";
export { datedBack } from "../helpers/tmp";

/** The untouched platform fetch; this module must load before nock. */
export const realFetch: typeof fetch = globalThis.fetch;

export const API_KEY = "bench-key-not-a-secret";

/** The one chat request every chat contender replays. */
export const CHAT_PROMPT = "What is the capital of France? Answer in one short sentence.";

const made: string[] = [];

export function tmpDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `vcr-bench-${prefix}-`));
  made.push(dir);
  return dir;
}

export function removeTmpDirs(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export function chatModel(fake: FakeProvider, cache: unknown, fields: Record<string, unknown> = {}, fetchImpl: typeof fetch = realFetch): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: API_KEY,
    maxRetries: 0,
    cache: cache as ChatOpenAI["cache"],
    configuration: { baseURL: fake.openaiBaseURL, fetch: fetchImpl },
    ...fields,
  });
}

export function embeddingsModel(fake: FakeProvider): OpenAIEmbeddings {
  return new OpenAIEmbeddings({
    model: "text-embedding-3-small",
    apiKey: API_KEY,
    maxRetries: 0,
    configuration: { baseURL: fake.openaiBaseURL, fetch: realFetch },
  });
}

/** Throws when a replayed contender reached the provider: a bench of a broken replay is worthless. */
export function expectRequests(fake: FakeProvider, expected: number, what: string): void {
  const got = fake.count();
  if (got !== expected) throw new Error(`bench: ${what}: expected ${expected} provider requests, saw ${got}`);
}

export function log(line: string): void {
  process.stderr.write(line + "\n");
}

/**
 * Swallows langchain-vcr's "recorded a new ... fixture; the nearest recorded one differs"
 * notices (the bench records thousands of near-duplicates on purpose); returns a function
 * that restores stderr and gives how many were swallowed. The notices are still produced,
 * so their cost stays in every measurement.
 */
export function muteRecordingNotices(): () => number {
  let swallowed = 0;
  const restore = interceptNotes(() => swallowed++);
  return () => {
    restore();
    return swallowed;
  };
}

/** Runs a bench tool's `main` as a script: an error is printed and the process exits 1. */
export function runTool(main: () => Promise<void>): void {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
