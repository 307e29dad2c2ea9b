/**
 * Copies of @langchain/core other than the one langchain-vcr resolves: a package may bring its
 * own (a pnpm store holding another version, a nested node_modules), and its models and
 * embeddings extend that copy's classes. `install()` patches each one it finds
 * (`requireHook.ts`, `integrations.ts`, `jestRegistry.ts`). A copy that lacks a relied-on
 * internal, or that is loaded but cannot be read, is a VcrConfigError naming its directory, its
 * version and who uses it, returned on every encounter: what is built on it would reach the
 * provider unrecorded.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { VcrConfigError } from "../errors";
import { otherCopyFix, type OtherCopy } from "../internals/check";
import { noteBrokenCore } from "../internals/state";
import { supportedCoreRange } from "../internals/version";
import { log } from "../log";
import { knownCopy, patchCoreCopy } from "../patches";
import { claimCopy, loadCore } from "./esmCore";
import { underJest } from "./jestWhen";
import { patchEsmCoreLater } from "./esmCoreLater";
import { exportedFile } from "./packageJson";

/**
 * Patches the copy of core in `coreDir`, loaded as `condition` says. With `import` (the ESM entry
 * of a known integration, once per directory), a copy that cannot be loaded is a note: nothing
 * has loaded it yet. With `require`: `patchLoadedCopy`.
 */
export function patchCoreAt(coreDir: string, condition: "import" | "require", usedBy: string): VcrConfigError | undefined {
  if (condition === "require") return patchLoadedCopy(coreDir, usedBy);
  if (!claimCopy(coreDir, condition)) return undefined;
  try {
    return patchCoreCopy(loadCore(coreDir, condition), otherCopyAt(coreDir, usedBy));
  } catch (e) {
    if (!underJest()) {
      // require() could not give the ES module (an older Node, or tsx compiled it to CommonJS): import() loads it
      patchEsmCoreLater(coreDir).catch((later: Error) => log.warn(cannotLoadNote(coreDir, usedBy, later.message)));
      return undefined;
    }
    log.warn(cannotLoadNote(coreDir, usedBy, (e as Error).message));
    return undefined;
  }
}

function cannotLoadNote(coreDir: string, usedBy: string, cause: string): string {
  return (
    `note: vcr.install() could not load the copy of @langchain/core in ${coreDir}, which ${usedBy} uses (${cause.split("\n")[0]}).\n` +
    `  What is built on that copy is not recorded. Fix it: wrap those models and embeddings explicitly (cache: vcr.cache, vcr.embeddings()).\n`
  );
}

/**
 * A copy of core that CommonJS code has loaded (or is loading): patched unless its classes are
 * patched already (a copy loaded again is new classes); its error, every time, when it cannot be.
 * `usedBy` (who uses it, for the error) is asked only when the copy is new.
 */
export function patchLoadedCopy(coreDir: string, usedBy: string | (() => string)): VcrConfigError | undefined {
  const known = knownCopy(loadedChatModel(coreDir));
  if (known) return known === true ? undefined : known;
  const user = typeof usedBy === "string" ? usedBy : usedBy();
  let core;
  try {
    core = loadCore(coreDir, "require");
  } catch (e) {
    const error = cannotLoadError(coreDir, user, (e as Error).message.split("\n")[0]);
    noteBrokenCore(error);
    return error;
  }
  return patchCoreCopy(core, otherCopyAt(coreDir, user));
}

/** Where the copy in `coreDir` is, for an error naming it; undefined for the copy langchain-vcr itself resolves. */
export function otherCopyAt(coreDir: string, usedBy: string): OtherCopy | undefined {
  if (coreDir === ownCoreDir()) return undefined;
  return { dir: coreDir, version: packageVersion(coreDir), usedBy };
}

/** Each copy's CommonJS chat_models file (`null`: it exports none). */
const chatModelFiles = new Map<string, string | null>();

/** The BaseChatModel of the copy in `coreDir` as `require.cache` holds it, if it does. */
function loadedChatModel(coreDir: string): unknown {
  let file = chatModelFiles.get(coreDir);
  if (file === undefined) chatModelFiles.set(coreDir, (file = exportedFile(coreDir, "./language_models/chat_models", "require") ?? null));
  return file === null ? undefined : (require.cache[file]?.exports as { BaseChatModel?: unknown } | undefined)?.BaseChatModel;
}

let own: { dir: string | undefined } | undefined;

function ownCoreDir(): string | undefined {
  if (own) return own.dir;
  try {
    own = { dir: fs.realpathSync(path.dirname(require.resolve("@langchain/core/package.json"))) };
  } catch {
    own = { dir: undefined };
  }
  return own.dir;
}

function packageVersion(dir: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}

function cannotLoadError(coreDir: string, usedBy: string, cause: string): VcrConfigError {
  const range = supportedCoreRange();
  return new VcrConfigError(
    `cannot read the copy of @langchain/core in ${coreDir}, which ${usedBy} uses: ${cause}.\n` +
      `  that copy: @langchain/core ${packageVersion(coreDir)}; langchain-vcr supports @langchain/core ${range}, and patches a copy through its BaseChatModel, BaseLLM, StructuredTool and Embeddings.\n` +
      `  Without them a model built on that copy could reach the provider unrecorded, so langchain-vcr refuses it (and every new Vcr in this process).\n` +
      otherCopyFix(coreDir, range),
  );
}
