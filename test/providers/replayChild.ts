/**
 * The new process of a provider test: `node -r ts-node/register/transpile-only replayChild.ts
 * <provider>` with FIXTURE_DIR, FAKE_URL and LANGCHAIN_VCR_MODE=replay_only; prints what
 * `runOps` saw as one JSON line.
 */
import { runOps } from "./ops";
import type { ProviderSpec } from "./spec";

const name = process.argv[2];

const spec: ProviderSpec = require(`./specs/${name}`).spec;
runOps(spec, process.env.FAKE_URL!, process.env.FIXTURE_DIR!).then(
  (r) => console.log(JSON.stringify(r)),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
