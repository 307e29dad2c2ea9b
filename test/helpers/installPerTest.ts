/** For a describe block of `vcr.install()` tests: a fresh temporary directory per test, and the Vcr a test installs undone after it (a failed test too). */
import { Vcr, type VcrMode } from "../../src/index";
import { removeTmpDirs, tmpDir } from "./tmp";

export interface InstallPerTest {
  /** This test's temporary directory. */
  dir(): string;
  /** Installs a Vcr of `mode` over `fixtures` (default: this test's directory); returns its uninstall, which also runs after the test. */
  install(mode: VcrMode, fixtures?: string): () => void;
}

export function installPerTest(): InstallPerTest {
  let dir = "";
  let uninstall: (() => void) | undefined;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => {
    uninstall?.();
    uninstall = undefined;
    removeTmpDirs();
  });
  return {
    dir: () => dir,
    install: (mode, fixtures = dir) => (uninstall = new Vcr({ dir: fixtures, mode }).install()),
  };
}
