/**
 * The one reader of fixture files for the CLI, `validate` and the diagnostics: a file's
 * bytes, its parsed fixture (envelope checked, as replay checks it), and what is wrong with
 * it when it cannot be used. Replay reads through `FixtureStore.read`, which applies the
 * same envelope check (`readFixtureText`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { kindSpec } from "../kinds";
import { FIXTURE_FILE_RE, readFixtureText, type Fixture } from "./fixture";

export type FixtureFile =
  | { file: string; text: string; bytes: number; fixture: Fixture; problem?: undefined; cause?: undefined }
  | { file: string; text?: string; bytes: number; fixture?: undefined; problem: string; cause?: unknown };

/** The hash a fixture file's name says it holds, or undefined for a file not named `<sha256>.json`. */
export function hashOfName(file: string): string | undefined {
  const name = path.basename(file);
  return FIXTURE_FILE_RE.test(name) ? name.slice(0, -".json".length) : undefined;
}

/** Parses one fixture file's text: the fixture, or its problem. */
export function parseFixtureFile(file: string, text: string): FixtureFile {
  const bytes = Buffer.byteLength(text);
  const read = readFixtureText(text, hashOfName(file));
  if ("problem" in read) return { file, text, bytes, problem: read.problem, cause: read.cause };
  return { file, text, bytes, fixture: read.fixture };
}

/** Reads and parses one fixture file. An unreadable file is a problem, never a throw. */
export function readFixtureFile(file: string): FixtureFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    return { file, bytes: 0, problem: `cannot be read: ${(e as Error).message}`, cause: e };
  }
  return parseFixtureFile(file, text);
}

export async function readFixtureFileAsync(file: string): Promise<FixtureFile> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, "utf8");
  } catch (e) {
    return { file, bytes: 0, problem: `cannot be read: ${(e as Error).message}`, cause: e };
  }
  return parseFixtureFile(file, text);
}

/**
 * What is wrong with a parsed fixture's `response` by its kind's rule — the very check replay
 * applies before using it — or undefined when replay can use it.
 */
export function responseProblem(fixture: Fixture): string | undefined {
  return kindSpec(fixture.kind)?.responseProblem(fixture.response, fixture.request);
}
