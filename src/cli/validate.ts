/** `langchain-vcr validate [dir] [--json]`: exit 1 on any problem. */
import { validateFixtures } from "../validate";
import { flagWords, type ParsedArgs } from "./args";
import { allowedSecretPatterns, SECRET_FLAG } from "./secretFlag";
import * as fs from "node:fs";
import * as path from "node:path";
import { isFile } from "../fsProbe";
import { shellWord } from "../diagnose/messages";
import { dirArgOf, missingDirMessage, resolveDir, workspaceHint } from "./fixtureDir";
import { display, type Io } from "./io";
import { NOT_JSON } from "../store/fixture";
import { restoreOrRecord } from "../store/store";
import { suiteRerecordCommand } from "../diagnose/suiteCommand";

export const validateSpec = { booleans: ["json"], strings: [SECRET_FLAG] } as const;

/**
 * The fix under a file that is not JSON, as a replay's VcrFixtureError gives it (store.ts `fixtureFileError`): the
 * problem alone said "perhaps" and no more (trial 42 L5). Conflict markers' problem carries its fix already.
 */
function mendLine(io: Io, p: { file: string; problem: string }): string {
  const file = display(io, p.file);
  if (!p.problem.startsWith(NOT_JSON)) return "";
  return `    Fix it: ${restoreOrRecord(file, suiteRerecordCommand())}.\n`;
}

/** A fixture file passed where the directory goes (recheck 61): the directory to pass, and `show` for the one file. */
function aFileHint(io: Io, dir: string): string | undefined {
  if (!isFile(dir)) return undefined;
  return (
    `  It is a file: validate checks a fixture directory, e.g. langchain-vcr validate ${shellWord(display(io, path.dirname(dir)))}; ` +
    `langchain-vcr show ${shellWord(display(io, dir))} reads this one.`
  );
}

export async function validateCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = resolveDir(io, dirArgOf(args, "validate"));
  const allow = allowedSecretPatterns(args);
  const problems = await validateFixtures(dir, { allowSecretPatterns: allow });
  const hint = problems.length && !fs.existsSync(dir) ? workspaceHint(dir, `validate${flagWords(args)}`) : undefined; // a workspace's root, its fixtures in its packages
  if (args.flags.json) {
    io.out(JSON.stringify({ ok: problems.length === 0, problems }, null, 2) + "\n");
    if (hint) io.err(`langchain-vcr: ${display(io, dir)} does not exist.\n${hint}\n`); // stdout stays the JSON alone
  } else if (problems.length === 1 && (!fs.existsSync(dir) || problems[0].file === dir)) {
    // one problem, the directory itself: said as every other command says it, not as "1 problem(s) in 1 file(s)"
    const what = problems[0].problem.startsWith("does not exist") ? "does not exist" : problems[0].problem;
    io.err(`langchain-vcr: ${missingDirMessage(dir, what, `validate${flagWords(args)}`, hint ?? aFileHint(io, dir))}\n`);
  } else if (problems.length === 0) {
    io.out(`langchain-vcr: ${display(io, dir)}: all fixtures are valid.\n`);
  } else {
    const files = new Set(problems.map((p) => p.file)).size;
    io.err(
      `langchain-vcr: ${problems.length} problem(s) in ${files} file(s) in ${display(io, dir)}:\n` +
        problems.map((p) => `  ${display(io, p.file)}: ${p.problem}\n` + mendLine(io, p)).join("") +
        (hint ? hint + "\n" : ""),
    );
  }
  return problems.length === 0 ? 0 : 1;
}
