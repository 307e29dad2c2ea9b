/** Which directories are the packages of an npm, yarn or pnpm workspace, found from any directory inside it. */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { pnpmWorkspacePatterns, workspaceDirs } from "../../src/install/workspaces";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

function pkg(dir: string, meta: object = { name: path.basename(dir) }): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(meta));
}

describe("workspace packages (workspaceDirs)", () => {
  afterEach(removeTmpDirs);

  it("npm patterns: a `*` segment, `**` at any depth (not into node_modules or dot directories), a literal path, and `!` exclusions; only directories with a package.json; found from inside a package", () => {
    const root = tmpDir("vcr-ws-");
    pkg(root, { name: "mono", workspaces: ["packages/*", "apps/**", "tools/cli", "!packages/ignored"] });
    for (const d of ["packages/a", "packages/b", "packages/ignored", "apps/web", "apps/group/api", "apps/node_modules/x", "apps/.cache/y", "tools/cli"])
      pkg(path.join(root, d));
    fs.mkdirSync(path.join(root, "packages/no-package"), { recursive: true });
    const rel = (dirs: string[]) => dirs.map((d) => path.relative(root, d).split(path.sep).join("/")).sort();
    const expected = ["apps/group/api", "apps/web", "packages/a", "packages/b", "tools/cli"];
    expect(rel(workspaceDirs(path.join(root, "packages/a")))).to.deep.equal(expected);
    expect(rel(workspaceDirs(root))).to.deep.equal(expected);
  });

  it("a workspace package that is a link to a directory elsewhere is one; a link back up inside a `**` pattern does not loop", () => {
    const root = tmpDir("vcr-ws-");
    pkg(root, { name: "mono", workspaces: ["packages/*", "apps/**"] });
    pkg(path.join(root, "elsewhere/linked"));
    fs.mkdirSync(path.join(root, "packages"));
    fs.symlinkSync(path.join(root, "elsewhere/linked"), path.join(root, "packages/linked"), "dir");
    pkg(path.join(root, "apps/web"));
    fs.symlinkSync(path.join(root, "apps"), path.join(root, "apps/web/loop"), "dir"); // apps/web/loop/web/loop/…
    const rel = workspaceDirs(root).map((d) => path.relative(root, d).split(path.sep).join("/"));
    expect(rel.sort()).to.deep.equal(["apps/web", "packages/linked"]); // apps/web once: the link back to apps/ is not followed
  });

  it("yarn's form ({ packages: [...] }) is read; a project with no workspaces field above it has none", () => {
    const root = tmpDir("vcr-ws-");
    pkg(root, { name: "mono", workspaces: { packages: ["libs/*"], nohoist: ["**/x"] } });
    pkg(path.join(root, "libs/one"));
    expect(workspaceDirs(path.join(root, "libs/one")).map((d) => path.basename(d))).to.deep.equal(["one"]);
    const plain = tmpDir("vcr-ws-");
    pkg(plain, { name: "plain" });
    expect(workspaceDirs(plain)).to.deep.equal([]);
  });

  it("pnpm's pnpm-workspace.yaml: its `packages:` globs, quoted or not, with comments and `!` exclusions, found from inside a package; other keys are left alone", () => {
    const root = tmpDir("vcr-ws-");
    pkg(root, { name: "mono" }); // a pnpm workspace root's package.json has no "workspaces"
    fs.writeFileSync(
      path.join(root, "pnpm-workspace.yaml"),
      [
        `# the workspace`,
        `packages:`,
        `  - 'packages/*' # libraries`,
        `  - "apps/**"`,
        `  - tools/cli`,
        ``,
        `  - '!packages/ignored'`,
        `catalog:`,
        `  - not/a-package`,
        `onlyBuiltDependencies:`,
        `  - esbuild`,
        ``,
      ].join("\n"),
    );
    for (const d of ["packages/a", "packages/ignored", "apps/web", "tools/cli", "not/a-package"]) pkg(path.join(root, d));
    const rel = (dirs: string[]) => dirs.map((d) => path.relative(root, d).split(path.sep).join("/")).sort();
    expect(rel(workspaceDirs(path.join(root, "packages/a")))).to.deep.equal(["apps/web", "packages/a", "tools/cli"]);
  });

  it("pnpm-workspace.yaml's flow form (`packages: [...]`), and a file without `packages:` (the root package alone: no packages)", () => {
    const dir = tmpDir("vcr-ws-");
    const file = path.join(dir, "pnpm-workspace.yaml");
    fs.writeFileSync(file, `packages: ["libs/*", 'apps/web']\n`);
    expect(pnpmWorkspacePatterns(file)).to.deep.equal(["libs/*", "apps/web"]);
    fs.writeFileSync(file, `onlyBuiltDependencies:\n  - esbuild\n`);
    expect(pnpmWorkspacePatterns(file)).to.deep.equal([]);
    expect(pnpmWorkspacePatterns(path.join(dir, "none.yaml"))).to.equal(undefined);
  });
});
