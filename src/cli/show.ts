/** `langchain-vcr show <hash|file> [--dir dir]`: one recorded exchange, readably. */
import * as fs from "node:fs";
import * as path from "node:path";
import { isFile } from "../fsProbe";
import { unusableProblems } from "../validate";
import { VcrFixtureError } from "../errors";
import { parseFixtureFile } from "../store/reader";
import { fixtureFileError } from "../store/store";
import { flagWords, UsageError, type ParsedArgs } from "./args";
import { listFixtures, resolveDir } from "./fixtureDir";
import { display, type Io } from "./io";
import { cliVerdicts } from "./ledgers";
import { renderFixture } from "./render";
import { usedByLine } from "./usedBy";
import { shellWord } from "../diagnose/messages";
import { masked, SECRET_FLAG } from "./secretFlag";

export const showSpec = { booleans: ["json"], strings: ["dir", "ledger-dir", SECRET_FLAG] } as const;

export async function showCommand(args: ParsedArgs, io: Io): Promise<number> {
  const target = args.positionals[0];
  if (!target || args.positionals.length > 1) throw new UsageError("show takes exactly one <hash|file>");
  const dir = resolveDir(io, typeof args.flags.dir === "string" ? args.flags.dir : undefined);
  const file = locate(io, target, dir, typeof args.flags.dir === "string", `show ${target}${flagWords(args, ["dir"])} --dir`);
  const text = fs.readFileSync(file, "utf8");
  if (args.flags.json) {
    io.out(text.endsWith("\n") ? text : text + "\n");
    return 0;
  }
  const read = parseFixtureFile(file, text);
  if (read.problem !== undefined) throw fixtureFileError(file, read.problem, undefined, { replaying: false });
  const { verdicts } = cliVerdicts(args, io, path.dirname(file));
  // a credential a fixture holds by mistake (validate reports it) is not printed, in a value or
  // in what the render joins (a stream's chunks); --json prints the file as it is
  io.out(
    masked(
      renderFixture(masked(read.fixture, args), display(io, file), [
        // what replay and validate say of it: a reader of the answer must not take it for one a test replays
        ...unusableProblems(display(io, file), read.fixture).map((p) => `  damaged:  ${p}`),
        usedByLine(
          file,
          verdicts?.last,
          verdicts?.otherSuites.map((o) => o.run),
          verdicts?.lastComplete,
        ),
      ]),
      args,
    ),
  );
  return 0;
}

/** A file path as given, else a full hash or a unique hash prefix in `dir`. */
/** `command`: this show's command line with its --dir last, for a missing directory's hint. */
function locate(io: Io, target: string, dir: string, dirGiven: boolean, command: string): string {
  const asPath = path.resolve(io.cwd, target);
  const looksLikePath = target.includes("/") || target.includes(path.sep) || target.endsWith(".json");
  if (looksLikePath && isFile(asPath)) return asPath;
  const hash = path
    .basename(target)
    .toLowerCase()
    .replace(/\.json$/, "");
  if (!/^[0-9a-f]{4,64}$/.test(hash)) {
    throw new VcrFixtureError(
      looksLikePath
        ? `${display(io, asPath)} does not exist, and its name is no hash (at least 4 hex digits).`
        : `${JSON.stringify(target)} is neither a fixture file nor a hash (at least 4 hex digits).`,
      asPath,
    );
  }
  if (looksLikePath && target.includes("/")) {
    throw new VcrFixtureError(
      `${display(io, asPath)} does not exist. Check the path, or pass the hash alone (langchain-vcr show ${hash.slice(0, 8)}).`,
      asPath,
    );
  }
  const exact = path.join(dir, hash + ".json");
  if (hash.length === 64 && isFile(exact)) return exact;
  const wanted = { what: `a fixture whose hash starts with ${hash}`, holds: (names: string[]) => names.some((n) => n.startsWith(hash)) };
  const matches = listFixtures(dir, command, wanted).filter((f) => path.basename(f).startsWith(hash));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    throw new VcrFixtureError(
      `no fixture in ${display(io, dir)} has a hash starting with ${hash}.\n` +
        (dirGiven
          ? `  Check the hash (langchain-vcr stats ${shellWord(display(io, dir))} lists the fixtures), or pass a file path.`
          : `  Pass the fixture directory with --dir, or a file path.`),
      exact,
    );
  }
  throw new VcrFixtureError(
    `${matches.length} fixtures in ${display(io, dir)} start with ${hash}; give more digits:\n` +
      matches
        .slice(0, 10)
        .map((m) => `  ${path.basename(m)}\n`)
        .join(""),
    exact,
  );
}
