/**
 * The one sink for what langchain-vcr says outside an error. The sink adds the "langchain-vcr: "
 * prefix (`prefixed`, as `VcrError` does for errors) and the line end; callers never type either.
 * - `warn`: something the user should act on (a large fixture, a failed test's recordings removed,
 *   a ledger that could not be written, a config error that stops the run); always on stderr.
 * - `note`: worth knowing, never wrong to miss (a near miss while recording); on stderr unless
 *   env LANGCHAIN_VCR_QUIET is set.
 * - `debug`: what happened, for `NODE_DEBUG=langchain-vcr`.
 */
import { debuglog } from "node:util";
import { prefixed } from "./errors";

function line(text: string): void {
  process.stderr.write(prefixed(text.endsWith("\n") ? text : text + "\n"));
}

export const log = {
  warn: line,
  note(text: string): void {
    if (!process.env.LANGCHAIN_VCR_QUIET) line(text);
  },
  debug: debuglog("langchain-vcr"),
};
