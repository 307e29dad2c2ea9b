/**
 * Checks one copy of @langchain/core for every internal in `table.ts` before any of it is
 * patched. A missing one is a `VcrConfigError` naming it, the installed core version and the
 * supported range. The error is kept (see `state.ts`) and thrown by every `new Vcr()`, so no
 * model, embeddings or tool can be wired to a Vcr over a core it could not patch: nothing
 * falls back to a live call.
 */
import { VcrConfigError } from "../errors";
import { INTERNALS, internalName, type CoreClassName, type Internal } from "./table";
import { installedCoreVersion, supportedCoreRange } from "./version";

export type CoreClasses = Record<CoreClassName, { prototype: object } | undefined>;

/** The first relied-on internal this copy of core lacks, as the error to throw; undefined when all are there. */
export function missingInternal(core: CoreClasses): VcrConfigError | undefined {
  for (const internal of INTERNALS) {
    if (!defined(core, internal)) return missingError(internalName(internal), internal.use);
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

export function missingError(where: string, use: string): VcrConfigError {
  const version = installedCoreVersion();
  const range = supportedCoreRange();
  return new VcrConfigError(
    `cannot work with this @langchain/core: it has no ${where}.\n` +
      `  installed @langchain/core: ${version}; langchain-vcr supports @langchain/core ${range}.\n` +
      `  langchain-vcr uses ${where} to ${use}; without it a call could reach the provider unrecorded, so no Vcr can be created.\n` +
      `  Fix it: run \`npm ls @langchain/core\` and install a supported version: npm install @langchain/core@"${range}"`,
  );
}
