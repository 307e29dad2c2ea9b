/**
 * Where a run ran, so its ledger is read right from another directory. Ledgers store paths
 * relative to the run's root (the package the runner ran in: `ledgerRoot`); `prune`, `stats` and `show` resolve
 * them against their own. Those two differ when one ledger directory is shared by suites run in
 * different directories (`LANGCHAIN_VCR_LEDGER_DIR` set for each package of a workspace, read at
 * its root): a user trial's `prune` then saw every fixture as unused, used in `/cassettes`. So a
 * ledger also says where its root is in its git work tree, a path that holds on any machine
 * with the same checkout (a CI shard's ledgers, copied), and a reader rebases its paths on it.
 */
import * as path from "node:path";
import { dotGitAbove } from "../dotGit";

/** `root`'s place in its git work tree ("" at the top, with `/`), or undefined outside one. */
export function rootInRepo(root: string): { rootInRepo?: string } {
  const found = dotGitAbove(root);
  if (!found) return {};
  return { rootInRepo: path.relative(path.dirname(found.path), path.resolve(root)).split(path.sep).join("/") };
}

/**
 * The directory a run's ledger paths are relative to, as a reader in `root` finds it: the run's
 * root in the reader's work tree; `root` itself for a ledger without the field (older versions,
 * no git), outside a work tree, or with a place that is not inside it.
 */
export function runRootOf(records: readonly { rootInRepo?: unknown }[], root: string): string {
  const rel = records.find((r) => typeof r.rootInRepo === "string")?.rootInRepo as string | undefined;
  if (rel === undefined || path.isAbsolute(rel) || rel.split("/").includes("..")) return root;
  const found = dotGitAbove(root);
  return found ? path.resolve(path.dirname(found.path), rel) : root;
}
