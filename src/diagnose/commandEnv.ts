/**
 * What a printed re-record command starts with: the run's NODE_OPTIONS (without a debugger's or
 * Yarn PnP's preloads; with jest's --experimental-vm-modules, which a string model's import()
 * needs) and the mode, each word quoted for a POSIX shell. One for a single test's command and
 * the whole suite's (`npm test`), so neither drops a flag the run needed (trial 41).
 */
import { MODE_ENV } from "../modes";

/** `LANGCHAIN_VCR_MODE=record_or_replay`, after `NODE_OPTIONS=…` when the run had some; `jest`: jest's node flag joins them. */
export function rerecordEnv(jest: boolean, env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): string {
  return `${nodeOptionsPrefix(jest, env, execArgv)}${MODE_ENV}=record_or_replay`;
}

/** `NODE_OPTIONS=… ` as a printed command starts with it (the run's own, for jest with its ESM flag), or "" when there are none. */
export function nodeOptionsPrefix(jest: boolean, env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): string {
  const nodeOptions = jest ? jestNodeOptions(env.NODE_OPTIONS, execArgv) : portableNodeOptions(env.NODE_OPTIONS);
  return nodeOptions ? `NODE_OPTIONS=${shellWord(nodeOptions)} ` : "";
}

/** A word for a POSIX shell as it is when nothing in it is special, else quoted. */
export function shellWord(s: string): string {
  return /^[\w.,:/@%+=-]+$/.test(s) ? s : shellQuote(s);
}

/** A word for a POSIX shell: in double quotes when that is safe, else in single quotes. */
export function shellQuote(s: string): string {
  if (/^[\w .,:/@%+=<>-]*$/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
/** node's flags a test process keeps that the command needs again: each takes a value (`-r` and `-C` are short for two of them). */
export const VALUE_FLAGS = /^(?:--(import|loader|experimental-loader|require|env-file|conditions)(?:=(.*))?|-(r|C))$/;

/**
 * A debugger's flags and preloads (an IDE's auto-attach): a command copied into another terminal must not wait for a debugger.
 * Yarn's Plug'n'Play preloads too (`.pnp.cjs`, `.pnp.loader.mjs`): yarn adds them again when it runs the command.
 */
const DEBUGGER_FLAG = /^--(?:inspect|debug)/;
const DEBUGGER_PRELOAD =
  /js-debug[\\/].*bootloader|[\\/]ms-vscode\.js-debug|jetbrains[\\/].*debugger|[\\/]debugConnector\.js$|[\\/]\.pnp\.(?:c?js|loader\.mjs)$/i;

/** NODE_OPTIONS without a debugger's flags and preloads (nor Yarn PnP's); undefined when nothing is left. */
export function portableNodeOptions(value: string | undefined): string | undefined {
  const words = value?.match(/"[^"]*"|\S+/g) ?? [];
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (DEBUGGER_FLAG.test(w)) continue;
    const flag = VALUE_FLAGS.exec(w); // the flags that take a value, as preloadArgs reads them
    if (!flag) {
      kept.push(w);
      continue;
    }
    const inline = flag[2];
    const target = inline ?? words[++i] ?? "";
    if (!DEBUGGER_PRELOAD.test(target)) kept.push(inline === undefined ? `${w} ${target}` : w);
  }
  return kept.length ? kept.join(" ") : undefined;
}

/**
 * The NODE_OPTIONS a jest command needs: the run's, and `--experimental-vm-modules` when jest was
 * started with it as node's own flag (`node --experimental-vm-modules node_modules/jest/bin/jest.js`,
 * jest's ESM setup), which jest's workers inherit: `npx jest` without it loads no ESM test file.
 */
export function jestNodeOptions(value: string | undefined, execArgv: readonly string[]): string | undefined {
  const options = portableNodeOptions(value);
  if (!execArgv.includes(VM_MODULES) || options?.split(" ").includes(VM_MODULES)) return options;
  return options ? `${options} ${VM_MODULES}` : VM_MODULES;
}
const VM_MODULES = "--experimental-vm-modules";
