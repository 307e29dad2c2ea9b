/** The re-record command of a miss, in each runner's own words, with the test's title as a pattern. */
import { expect } from "chai";
import * as path from "node:path";
import { preloadArgs, rerecordCommand, rerecordTestsCommand, testFileArg } from "../../src/diagnose/rerecordCommand";
import { jestNodeOptions, portableNodeOptions } from "../../src/diagnose/commandEnv";
import { CONTEXT_ENV } from "../../src/mocha/contextEnv";
import { SHARE_ENV } from "../../src/runner/shareEnv";

const ENV = "LANGCHAIN_VCR_MODE=record_or_replay";

describe("rerecordCommand", () => {
  // the commands below are printed as from the directory the tests run in: a package manager invoked above it would add a cd (its own test below)
  let initCwd: string | undefined;
  before(() => {
    initCwd = process.env.INIT_CWD;
    delete process.env.INIT_CWD;
  });
  after(() => {
    if (initCwd !== undefined) process.env.INIT_CWD = initCwd;
  });

  it("names the test's file for vitest (as text) and jest (a pattern: what would change its match escaped), so a test of the same title elsewhere is left alone", () => {
    const at = (f: string) => path.join(process.cwd(), f);
    expect(rerecordCommand("vitest", "summarize works", at("test/gemini.test.ts"))).to.equal(`${ENV} npx vitest run test/gemini.test.ts -t "summarize works"`);
    expect(rerecordCommand("jest", "summarize works", at("test/gemini.test.ts"))).to.equal(`${ENV} npx jest test/gemini.test.ts -t "summarize works"`);
    expect(rerecordCommand("vitest", "t", at("app/(auth)/[id].test.ts"))).to.equal(`${ENV} npx vitest run 'app/(auth)/[id].test.ts' -t "t"`);
    expect(rerecordCommand("jest", "t", at("app/(auth)/[id].test.ts"))).to.equal(String.raw`${ENV} npx jest 'app/\(auth\)/\[id\].test.ts' -t "t"`);
    expect(rerecordCommand("mocha", "t", at("test/a.spec.ts"))).to.equal(`${ENV} npx mocha --grep "t"`); // mocha's command carries the run's own spec files
  });

  it("uses each runner's own command and flag and the real title", () => {
    expect(rerecordCommand("mocha", "refunds order 42")).to.equal(`${ENV} npx mocha --grep "refunds order 42"`);
    expect(rerecordCommand("vitest", "agent refunds")).to.equal(`${ENV} npx vitest run -t "agent refunds"`);
    expect(rerecordCommand("jest", "agent refunds")).to.equal(`${ENV} npx jest -t "agent refunds"`);
    const argv1 = process.argv[1];
    process.argv[1] = path.join(process.cwd(), "test", "refund spec.ts");
    try {
      // outside a test file's own process (no NODE_TEST_CONTEXT): argv[1] is no test file to name
      expect(rerecordCommand("node-test", "refunds")).to.equal(`${ENV} node --require langchain-vcr/node-test --test --test-name-pattern "refunds"`);
      process.env.NODE_TEST_CONTEXT = "child-v8";
      expect(rerecordCommand("node-test", "refunds")).to.equal(
        `${ENV} node --require langchain-vcr/node-test --test --test-name-pattern "refunds" "test/refund spec.ts"`,
      );
    } finally {
      process.argv[1] = argv1;
      delete process.env.NODE_TEST_CONTEXT;
    }
  });
  it("node:test names the process's test file from the working directory (absolute outside it); none when there is none", () => {
    expect(testFileArg(path.join(process.cwd(), "test/a.test.ts"))).to.equal(" test/a.test.ts");
    expect(testFileArg("/elsewhere/a.test.ts")).to.equal(" /elsewhere/a.test.ts");
    expect(testFileArg(undefined)).to.equal("");
  });
  it("NODE_OPTIONS loses a debugger's flags and preloads (an IDE's auto-attach), and keeps the rest", () => {
    expect(portableNodeOptions('--require "/home/u/.vscode/js-debug/bootloader.js" --experimental-vm-modules --inspect-brk=9229')).to.equal(
      "--experimental-vm-modules",
    );
    expect(portableNodeOptions("--import=tsx -r ./setup.cjs --max-old-space-size=4096")).to.equal("--import=tsx -r ./setup.cjs --max-old-space-size=4096");
    expect(portableNodeOptions("--inspect")).to.equal(undefined);
    // a preload of the user's own whose path merely mentions an editor stays
    expect(portableNodeOptions("-r /home/u/src/vscode-ext/test/setup.js")).to.equal("-r /home/u/src/vscode-ext/test/setup.js");
    expect(portableNodeOptions("--require /x/extensions/ms-vscode.js-debug/src/bootloader.js")).to.equal(undefined);
    expect(portableNodeOptions(undefined)).to.equal(undefined);
  });
  it("under yarn (npm_config_user_agent): the runner through yarn, and Yarn PnP's own preloads left out of NODE_OPTIONS (yarn adds them again)", () => {
    const saved = { agent: process.env.npm_config_user_agent, options: process.env.NODE_OPTIONS, argv1: process.argv[1] };
    // as Yarn 4 runs a script under Plug'n'Play (measured in a user trial)
    process.env.npm_config_user_agent = "yarn/4.18.1 npm/? node/v20.20.2 linux x64";
    process.env.NODE_OPTIONS = "--require /tmp/p/.pnp.cjs --experimental-loader file:///tmp/p/.pnp.loader.mjs --experimental-vm-modules";
    process.argv[1] = path.join(process.cwd(), "test", "a.test.mjs");
    try {
      expect(rerecordCommand("vitest", "miss case")).to.equal(`NODE_OPTIONS=--experimental-vm-modules ${ENV} yarn vitest run -t "miss case"`);
      expect(rerecordCommand("jest", "miss case")).to.equal(`NODE_OPTIONS=--experimental-vm-modules ${ENV} yarn jest -t "miss case"`);
      expect(rerecordCommand("mocha", "miss case")).to.equal(`NODE_OPTIONS=--experimental-vm-modules ${ENV} yarn mocha --grep "miss case"`);
      process.env.NODE_OPTIONS = "--require /tmp/p/.pnp.cjs --experimental-loader file:///tmp/p/.pnp.loader.mjs";
      expect(rerecordCommand("node-test", "miss case")).to.equal(`${ENV} yarn node --require langchain-vcr/node-test --test --test-name-pattern "miss case"`);
      process.env.npm_config_user_agent = "npm/11.6.2 node/v20.20.2 linux x64 workspaces/false";
      expect(rerecordCommand("vitest", "miss case")).to.equal(`${ENV} npx vitest run -t "miss case"`);
    } finally {
      if (saved.agent === undefined) delete process.env.npm_config_user_agent;
      else process.env.npm_config_user_agent = saved.agent;
      if (saved.options === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = saved.options;
      process.argv[1] = saved.argv1;
    }
  });
  it("keeps the run's NODE_OPTIONS (jest's --experimental-vm-modules, which a string model needs), quoted", () => {
    const saved = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = "--experimental-vm-modules --no-warnings";
    try {
      expect(rerecordCommand("jest", "agent")).to.equal(`NODE_OPTIONS="--experimental-vm-modules --no-warnings" ${ENV} npx jest -t "agent"`);
    } finally {
      if (saved === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = saved;
    }
  });
  it("jest started with node's own --experimental-vm-modules (jest's ESM setup, which its workers inherit): the command passes it in NODE_OPTIONS (npx jest without it loads no ESM test file)", () => {
    expect(jestNodeOptions(undefined, ["--experimental-vm-modules"])).to.equal("--experimental-vm-modules");
    expect(jestNodeOptions("--no-warnings", ["--experimental-vm-modules"])).to.equal("--no-warnings --experimental-vm-modules");
    expect(jestNodeOptions("--experimental-vm-modules", ["--experimental-vm-modules"])).to.equal("--experimental-vm-modules");
    expect(jestNodeOptions(undefined, [])).to.equal(undefined);
    const saved = process.env.NODE_OPTIONS;
    delete process.env.NODE_OPTIONS;
    process.execArgv.push("--experimental-vm-modules");
    try {
      expect(rerecordCommand("jest", "agent")).to.equal(`NODE_OPTIONS=--experimental-vm-modules ${ENV} npx jest -t "agent"`);
      expect(rerecordCommand("vitest", "agent")).to.equal(`${ENV} npx vitest run -t "agent"`); // vitest loads ESM by itself
    } finally {
      process.execArgv.pop();
      if (saved !== undefined) process.env.NODE_OPTIONS = saved;
    }
  });
  it("run by a package manager from a directory above the package (pnpm -r test, npm test -w): the command starts with cd into the package, from there", () => {
    const saved = process.env.INIT_CWD;
    try {
      process.env.INIT_CWD = path.dirname(process.cwd());
      expect(rerecordCommand("vitest", "agent")).to.equal(`cd ${path.basename(process.cwd())} && ${ENV} npx vitest run -t "agent"`);
      process.env.INIT_CWD = process.cwd(); // run from the package itself
      expect(rerecordCommand("vitest", "agent")).to.equal(`${ENV} npx vitest run -t "agent"`);
      process.env.INIT_CWD = path.join(process.cwd(), "elsewhere"); // not above it: nothing to say
      expect(rerecordCommand("vitest", "agent")).to.equal(`${ENV} npx vitest run -t "agent"`);
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  });
  it("escapes the title's regular-expression characters (every runner reads a pattern)", () => {
    // single quotes: the shell passes the backslashes and the $ through as they are
    expect(rerecordCommand("vitest", "costs $10 (net) + tax?")).to.equal(String.raw`${ENV} npx vitest run -t 'costs \$10 \(net\) \+ tax\?'`);
    expect(rerecordCommand("jest", "it's done.")).to.equal(String.raw`${ENV} npx jest -t 'it'\''s done\.'`);
    // node:test's TAP reporter (off a terminal: CI logs) doubles a printed backslash: a character class instead, where one does (trial 36a)
    const nodeTest = rerecordCommand("node-test", "forgets to await (prompt changed) $1.5?");
    expect(nodeTest).to.equal(`${ENV} node --require langchain-vcr/node-test --test --test-name-pattern 'forgets to await [(]prompt changed[)] [$]1[.]5[?]'`);
    const pattern = new RegExp("forgets to await [(]prompt changed[)] [$]1[.]5[?]");
    expect(pattern.test("forgets to await (prompt changed) $1.5?")).to.equal(true);
    expect(pattern.test("forgets to await prompt changed $1x5")).to.equal(false);
  });
  it("node:test: keeps what the process preloads (--import tsx, --require of a setup file that calls vcr.install()), its --env-file and conditions, which the command needs again", () => {
    expect(preloadArgs(["--require", "x", "--import", "tsx", "--loader=ts-node/esm", "--import=langchain-vcr/node-test"])).to.equal(
      ` --require x --import tsx --loader ts-node/esm`,
    );
    // every spelling of --require; langchain-vcr/node-test already leads the command
    expect(preloadArgs(["--require", "langchain-vcr/node-test", "-r", "./vcr-setup.cjs", "--require=ts-node/register", "--test"])).to.equal(
      ` --require ./vcr-setup.cjs --require ts-node/register`,
    );
    // the provider's key (--env-file), export conditions, TypeScript's own flags; nothing else
    expect(preloadArgs(["--env-file=.env.test", "-C", "development", "--experimental-strip-types", "--test-reporter=spec"])).to.equal(
      ` --env-file .env.test --conditions development --experimental-strip-types`,
    );
    expect(preloadArgs(["--enable-source-maps"])).to.equal("");
  });
  it("node:test on Node 24+: a test process's execArgv lists every option's value, then the command line again; each preload is kept once, in order", () => {
    // measured on Node 24.22 and 26.12: `node --require langchain-vcr/node-test --require ./vcr-setup.cjs -r ./r2.cjs --import tsx --test`
    const execArgv = [
      "--test-coverage-functions=0",
      "--test-concurrency=0",
      "--import=tsx",
      "--test-isolation=process",
      "--test-name-pattern=x",
      "--require=langchain-vcr/node-test",
      "--require=./vcr-setup.cjs",
      "--require=./r2.cjs",
      "--heapsnapshot-near-heap-limit=0",
      "--require",
      "langchain-vcr/node-test",
      "--require",
      "./vcr-setup.cjs",
      "-r",
      "./r2.cjs",
      "--import",
      "tsx",
    ];
    expect(preloadArgs(execArgv)).to.equal(` --import tsx --require ./vcr-setup.cjs --require ./r2.cjs`);
  });
  it("mocha: the suite's own mocha arguments (its -r setup file, --config, spec files) that the plugin recorded, then --grep", () => {
    const context = { runId: "r", mainId: "m", mainPid: 1, command: ["-r", "./vcr setup.js", "--config=.mocharc.e2e.json", "test/a.spec.js"] };
    withEnv(CONTEXT_ENV, context, () => {
      expect(rerecordCommand("mocha", "refunds")).to.equal(`${ENV} npx mocha -r "./vcr setup.js" --config=.mocharc.e2e.json test/a.spec.js --grep "refunds"`);
    });
  });

  it("vitest and jest: the config options the main process recorded in the run it shares with its test processes, then -t", () => {
    const share = { runner: "vitest", runId: "r", mainId: "m", dir: "/tmp/x", command: ["-c", "vitest.llm.config.ts", "--project=my app"] };
    withEnv(SHARE_ENV, share, () => {
      expect(rerecordCommand("vitest", "refunds")).to.equal(`${ENV} npx vitest run -c vitest.llm.config.ts "--project=my app" -t "refunds"`);
      // another runner's run (a jest started inside a vitest test, say): its options are not jest's
      expect(rerecordCommand("jest", "refunds")).to.equal(`${ENV} npx jest -t "refunds"`);
    });
  });

  it("names the suite's own command outside a test (nothing names the test)", () => {
    expect(rerecordCommand(undefined, undefined)).to.equal(`${ENV} npm test`);
  });

  describe("the tests a run missed, in one command (rerecordTestsCommand)", () => {
    const at = (f: string) => path.join(process.cwd(), f);
    it("names each test's file once, sorted, and a filter that matches every title (each escaped, joined by |)", () => {
      const tests = [
        { runner: "vitest" as const, title: "summarize streams a summary", file: at("test/summarize.test.ts") },
        { runner: "vitest" as const, title: "costs $10?", file: at("test/a.test.ts") },
        { runner: "vitest" as const, title: "summarize summarizes text", file: at("test/summarize.test.ts") },
      ];
      expect(rerecordTestsCommand(tests)).to.equal(
        String.raw`${ENV} npx vitest run test/a.test.ts test/summarize.test.ts -t 'summarize streams a summary|costs \$10\?|summarize summarizes text'`,
      );
      const jest = tests.map((t) => ({ ...t, runner: "jest" as const }));
      expect(rerecordTestsCommand(jest)).to.equal(
        String.raw`${ENV} npx jest test/a.test.ts test/summarize.test.ts -t 'summarize streams a summary|costs \$10\?|summarize summarizes text'`,
      );
      // the filter each runner reads matches each title, and not a third
      const filter = new RegExp(String.raw`summarize streams a summary|costs \$10\?|summarize summarizes text`);
      for (const t of tests) expect(filter.test(t.title), t.title).to.equal(true);
      expect(filter.test("summarize translates")).to.equal(false);
    });
    it("node:test names each process's test file; mocha the suite's own arguments, with the one file swapped in only when all missed in one", () => {
      const nodeTests = [
        { runner: "node-test" as const, title: "a (1)", file: at("test/a.test.ts") },
        { runner: "node-test" as const, title: "b", file: at("test/b.test.ts") },
      ];
      expect(rerecordTestsCommand(nodeTests)).to.equal(
        `${ENV} node --require langchain-vcr/node-test --test --test-name-pattern 'a [(]1[)]|b' test/a.test.ts test/b.test.ts`,
      );
      const context = { runId: "r", mainId: "m", mainPid: 1, command: ["-r", "./vcr-setup.js", "test/**/*.spec.js"] };
      withEnv(CONTEXT_ENV, context, () => {
        const mocha = [
          { runner: "mocha" as const, title: "a", file: at("test/a.spec.js") },
          { runner: "mocha" as const, title: "b", file: at("test/b.spec.js") },
        ];
        expect(rerecordTestsCommand(mocha)).to.equal(`${ENV} npx mocha -r ./vcr-setup.js 'test/**/*.spec.js' --grep 'a|b'`);
      });
    });
    it("a test whose file is unknown: no file narrows the command; more than 10 titles: the files alone; neither: the suite's command", () => {
      const tests = [
        { runner: "vitest" as const, title: "a", file: at("test/a.test.ts") },
        { runner: "vitest" as const, title: "b" },
      ];
      expect(rerecordTestsCommand(tests)).to.equal(`${ENV} npx vitest run -t 'a|b'`);
      const many = Array.from({ length: 11 }, (_, i) => ({ runner: "vitest" as const, title: `t${i}`, file: at(`test/${i % 2}.test.ts`) }));
      expect(rerecordTestsCommand(many)).to.equal(`${ENV} npx vitest run test/0.test.ts test/1.test.ts`);
      expect(rerecordTestsCommand(many.map((t) => ({ ...t, file: undefined })))).to.equal(`${ENV} npm test`);
    });
  });
});

/** Runs `fn` with the environment variable `name` set to `value` as JSON, then puts it back. */
function withEnv(name: string, value: object, fn: () => void): void {
  const saved = process.env[name];
  process.env[name] = JSON.stringify(value);
  try {
    fn();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}
