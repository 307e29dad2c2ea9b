/** `langchain-vcr validate [dir] [--json]`: exit 1 on any problem. */
import { validateFixtures } from "../validate";
import { SECRET_PATTERN_NAMES } from "../secrets";
import { UsageError, type ParsedArgs } from "./args";
import { dirArgOf, resolveDir } from "./fixtureDir";
import { display, type Io } from "./io";

export const validateSpec = { booleans: ["json"], strings: ["allow-secret-pattern"] } as const;

export async function validateCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = resolveDir(io, dirArgOf(args, "validate"));
  const allow = typeof args.flags["allow-secret-pattern"] === "string" ? args.flags["allow-secret-pattern"].split(",").map((s) => s.trim()) : [];
  for (const name of allow) {
    if (!SECRET_PATTERN_NAMES.includes(name))
      throw new UsageError(`${JSON.stringify(name)} is not a secret pattern name (valid: ${SECRET_PATTERN_NAMES.join(", ")})`);
  }
  const problems = await validateFixtures(dir, { allowSecretPatterns: allow });
  if (args.flags.json) {
    io.out(JSON.stringify({ ok: problems.length === 0, problems }, null, 2) + "\n");
  } else if (problems.length === 0) {
    io.out(`langchain-vcr: ${display(io, dir)}: all fixtures are valid.\n`);
  } else {
    const files = new Set(problems.map((p) => p.file)).size;
    io.err(
      `langchain-vcr: ${problems.length} problem(s) in ${files} file(s) in ${display(io, dir)}:\n` +
        problems.map((p) => `  ${display(io, p.file)}: ${p.problem}\n`).join(""),
    );
  }
  return problems.length === 0 ? 0 : 1;
}
