/**
 * Where the examples keep their fixtures: the committed `cassettes/` at the repository root
 * (resolved from this file, so any working directory works), or `EXAMPLES_CASSETTES` when set
 * (`npm run demo` records into a scratch directory that way).
 */
import * as path from "node:path";

export const CASSETTES = process.env.EXAMPLES_CASSETTES ? path.resolve(process.env.EXAMPLES_CASSETTES) : path.join(__dirname, "..", "..", "cassettes");
