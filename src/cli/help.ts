/** The CLI's usage texts. Defaults come from the one DEFAULTS constant (src/options.ts). */
import { DEFAULTS } from "../options";
import { LEDGER_DIR_ENV } from "../runner/ledgerFiles";

const D = DEFAULTS.dir;

export const USAGE = `Usage: langchain-vcr <command> [options]

Commands:
  validate [dir] [--json]       check every fixture file; exit 1 on any problem
  prune [dir] [--dry-run | --check]
                                remove fixtures no test used in the last complete run
                                (--check: exit 1 when any would go; the CI gate)
  stats [dir] [--json] [--by-test]
                                counts and bytes by kind and model, largest fixtures, unused count
  show <hash|file> [--dir dir]  print one recorded exchange readably
  migrate [dir] [--dry-run]     upgrade fixtures of an older schema version, offline
  diff [dir] [--base ref] [--format text|markdown|json]
                                what changed in dir since a git ref, for review

dir defaults to "${D}". Run "langchain-vcr <command> --help" for a command's options,
"langchain-vcr --version" for the version.
`;

export const COMMAND_USAGE: Record<string, string> = {
  validate: `Usage: langchain-vcr validate [dir] [--json] [--allow-secret-pattern name]

Checks every file in dir (default "${D}"; its top level only): named <sha256>.json, valid JSON,
a valid envelope whose "hash" matches the file name, a "request" that still hashes to that
"hash" (unless "redacted": true), no credential-shaped strings, no leftover temp files or
other files (dotfiles such as .gitkeep are ignored). Exit 0 when clean, 1 on any problem.

  --json                       print {"ok": boolean, "problems": [{"file", "problem"}]}
  --allow-secret-pattern a,b   do not report these secret patterns (comma-separated names)
`,
  prune: `Usage: langchain-vcr prune [dir] [--dry-run | --check] [--ledger-dir path]

Removes the fixtures in dir (default "${D}") that no test used in the last run, read from
the usage ledgers your test runner's langchain-vcr plugin writes. Refuses (exit 1) when that run
was partial: a name filter (--grep, -t), .only, test files named or left out on the command line,
tests that did not run, a failed test, or an unfinished run. Run the whole suite first.

  --dry-run          list what would be removed; delete nothing
  --check            as --dry-run, and exit 1 when anything would be removed (a CI check that
                     a pull request left no fixture behind; a refusal exits 1 too)
  --ledger-dir path  where the ledgers are (default: $${LEDGER_DIR_ENV}, else
                     node_modules/.cache/langchain-vcr/ledgers)
`,
  stats: `Usage: langchain-vcr stats [dir] [--json] [--by-test] [--ledger-dir path]

Counts and bytes of the fixtures in dir (default "${D}") by kind and by model, the 5 largest
fixtures, and how many fixtures the last run (per its usage ledger) did not use.

  --json             print the same as JSON
  --by-test          also list, per test of the last run, the fixtures it used
  --ledger-dir path  where the ledgers are (see prune --help)
`,
  migrate: `Usage: langchain-vcr migrate [dir] [--dry-run]

Rewrites every fixture in dir (default "${D}") written by an older langchain-vcr to the
current schema version and name, offline (no model call), and prints old → new. Each file is
written atomically, then the old one removed; running it again changes nothing. A damaged,
redacted or newer-than-known fixture is left byte for byte and listed (exit 1).

  --dry-run  print what would be renamed; write nothing
`,
  diff: `Usage: langchain-vcr diff [dir] [--base <ref>] [--format text|markdown|json]

Compares the fixtures in dir (default "${D}") between a git ref (default HEAD) and the
working tree. A new fixture that is an edit of a removed one (the nearest request of the same
kind) is one change: the request fields that differ, and how the response differs. The rest
are listed as added, removed, or re-recorded in place. Reads the base with git plumbing (no
checkout) and writes nothing. Exit 0 whatever it finds; 2 on a usage error or outside git.

  --base ref       the git ref to compare with (default HEAD; ref... is its merge base with HEAD,
                   what a pull request changed: origin/main...)
  --format f       text (default), markdown (for a pull-request comment) or json
  --allow-secret-pattern a,b   show these secret patterns (see validate); any other credential
                   a fixture holds is printed as [secret: <pattern>]
`,
  show: `Usage: langchain-vcr show <hash|file> [--dir dir] [--json]

Prints one recorded exchange: kind, model, parameters, tools, the messages with their roles
and tool calls, and the answer (or the vector summary, or the tool result), and which tests
used it in the last run (from the usage ledger). <hash> may be a
unique prefix of a fixture's hash in dir (default "${D}").

  --dir dir          the fixture directory to look the hash up in
  --json             print the fixture file as it is
  --ledger-dir path  where the usage ledgers are, for the "used by:" line (see prune --help)
  --allow-secret-pattern a,b   show these secret patterns (see validate); any other credential
                     a fixture holds is printed as [secret: <pattern>] (not with --json)
`,
};
