/**
 * The installed @langchain/core version and the range langchain-vcr supports (the peer range
 * declared in langchain-vcr's own package.json, read from there so the two never disagree).
 */
import * as fs from "node:fs";
import * as path from "node:path";

interface OwnPackage {
  name?: string;
  version?: string;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
let own: OwnPackage | undefined;

/** langchain-vcr's own package.json: the first one named langchain-vcr above this module ({} if none is). */
export function ownPackage(): OwnPackage {
  if (own !== undefined) return own;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as OwnPackage;
      if (pkg.name === "langchain-vcr") return (own = pkg);
    }
    if (path.dirname(dir) === dir) return (own = {});
  }
}

/** The declared peer range of @langchain/core, e.g. `>=1.1.43 <2`. */
export function supportedCoreRange(): string {
  return ownPackage().peerDependencies?.["@langchain/core"] ?? "unknown";
}

/** The version of `pkg` langchain-vcr's own tests install (its devDependency, without the range's `^`), e.g. `1.5.14`. */
export function testedVersion(pkg: string): string {
  return (ownPackage().devDependencies?.[pkg] ?? "latest").replace(/^[\^~]/, "");
}

/** The version of the @langchain/core this process resolves, or "unknown". Read from disk: core is not loaded, nor its package.json cached as a module. */
export function installedCoreVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(require.resolve("@langchain/core/package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}
