/**
 * Checks one copy of @langchain/core for every internal in `table.ts` before any of it is
 * patched. A missing one is a `VcrConfigError` naming it, the installed core version and the
 * supported range. The error is kept (see `state.ts`) and thrown by every `new Vcr()`, so no
 * model, embeddings or tool can be wired to a Vcr over a core it could not patch: nothing
 * falls back to a live call.
 */
import { storeOf } from "../install/packageDirs";
import { VcrConfigError } from "../errors";
import { INTERNALS, internalName, type CoreClassName, type Internal } from "./table";
import { installedCoreVersion, supportedCoreRange } from "./version";

export type CoreClasses = Record<CoreClassName, { prototype: object } | undefined>;

/** A copy of core other than the one langchain-vcr resolves: where it is, its version, and who uses it. */
export interface OtherCopy {
  dir: string;
  version: string;
  usedBy: string;
}

/** The first relied-on internal this copy of core lacks, as the error to throw; undefined when all are there. */
export function missingInternal(core: CoreClasses, copy?: OtherCopy): VcrConfigError | undefined {
  for (const internal of INTERNALS) {
    if (!defined(core, internal)) return missingError(core[internal.owner] ? internalName(internal) : `${internal.owner} class`, internal.use, copy);
  }
  return undefined;
}

/** Whether the class the table names defines the method itself (an inherited generic one does not count). */
function defined(core: CoreClasses, internal: Internal): boolean {
  const owner = core[internal.owner]?.prototype;
  const holder = owner && internal.definedBy ? (Object.getPrototypeOf(owner) as object | null) : owner;
  const own = holder ? Object.getOwnPropertyDescriptor(holder, internal.name) : undefined;
  return typeof own?.value === "function";
}

/**
 * The Fix line for another copy of core: who brings it, and, in a pnpm store, that pnpm keeps a
 * package nothing uses any more there for a while (`modules-cache-max-age`, 7 days by default),
 * which install() reaches as it does every copy in the store (measured in a user trial: a copy
 * left behind by a downgrade failed every test file after the app was upgraded again).
 */
export function otherCopyFix(dir: string, range: string): string {
  const fix = `  Fix it: \`npm ls @langchain/core\` shows which package brings that copy; upgrade it to a release built on @langchain/core ${range}, or remove it.`;
  if (storeOf(dir) === undefined) return fix;
  return (
    `  Fix it: \`pnpm why @langchain/core\` shows which package brings that copy; upgrade it to a release built on @langchain/core ${range}, or remove it.\n` +
    `  If nothing brings it, pnpm kept it after it was last used (for modules-cache-max-age, 7 days by default): \`pnpm install --config.modules-cache-max-age=0\` removes it.`
  );
}

export function missingError(where: string, use: string, copy?: OtherCopy): VcrConfigError {
  const range = supportedCoreRange();
  if (copy)
    return new VcrConfigError(
      `cannot work with the copy of @langchain/core in ${copy.dir}, which ${copy.usedBy} uses: it has no ${where}.\n` +
        `  that copy: @langchain/core ${copy.version}; langchain-vcr supports @langchain/core ${range}.\n` +
        `  langchain-vcr uses ${where} to ${use}; without it a model built on that copy could reach the provider unrecorded, so langchain-vcr refuses it (and every new Vcr in this process).\n` +
        otherCopyFix(copy.dir, range),
    );
  return new VcrConfigError(
    `cannot work with this @langchain/core: it has no ${where}.\n` +
      `  installed @langchain/core: ${installedCoreVersion()}; langchain-vcr supports @langchain/core ${range}.\n` +
      `  langchain-vcr uses ${where} to ${use}; without it a call could reach the provider unrecorded, so no Vcr can be created.\n` +
      `  Fix it: run \`npm ls @langchain/core\` and install a supported version: npm install @langchain/core@"${range}"`,
  );
}
