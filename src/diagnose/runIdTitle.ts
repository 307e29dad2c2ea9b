/**
 * Test titles with a part that is new on every run. LangSmith's test integration (`langsmith/vitest`,
 * `langsmith/jest`) registers each `ls.test` with the runner as `<name>, test_id=<random hex>` (its
 * TEST_ID_DELIMITER), the hex drawn afresh each run: a command that names the whole title selects no test
 * in the next run (the runner then passes, recording nothing), and a ledger that keeps it names a test no
 * later run has.
 */
const LANGSMITH_TEST_ID = /, test_id=[0-9a-f]{13}$/; // langsmith 0.12: the first 13 hex digits of a v4 UUID

/** The title the runner's name filter (`-t`, a regular expression) matches in every run: LangSmith's id left open. */
export function filterTitleOf(title: string): string {
  return title.replace(LANGSMITH_TEST_ID, ", test_id=");
}

/** The title without LangSmith's run-specific id: the test's name from run to run (the usage ledger's). */
export function stableTitle(title: string): string {
  return title.replace(LANGSMITH_TEST_ID, "");
}
