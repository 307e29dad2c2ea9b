/**
 * The examples' root hook plugin (examples/.mocharc.json requires it after langchain-vcr's).
 *
 * Before any example file loads, it chooses the provider (examples/provider/config.ts):
 * starts the stand-in provider on 127.0.0.1 unless a real one is configured, or — with
 * `EXAMPLES_PROVIDER=off` — points the clients at a port nothing listens on, so a replay
 * can prove it needs no provider at all. After the run it stops the stand-in (so mocha
 * exits), writes the per-file report to `EXAMPLES_REPORT` when set (examples/support/report.ts),
 * and, under `replay_only`, fails the run if the stand-in received any request.
 */
import * as net from "node:net";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { chooseProvider, needsStandIn, provider, useProvider } from "../provider/config";
import { startStandIn, type StandIn } from "../provider/standIn";
import { CASSETTES } from "./cassettes";
import { ReportCollector, writeReport } from "./report";
import { shop } from "./shop";

interface HookContext {
  currentTest?: { file?: string; state?: string };
}

/** An http://127.0.0.1:PORT address where nothing listens (a live call fails at once: ECONNREFUSED). */
function closedPortUrl(): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });
}

export async function mochaHooks() {
  const plan = await chooseProvider(process.env);
  const latencyMs = Number(process.env.EXAMPLES_STANDIN_LATENCY_MS ?? 0) || 0;
  const standIn: StandIn | undefined = needsStandIn(plan) ? await startStandIn({ latencyMs }) : undefined;
  useProvider(plan, standIn?.url ?? (await closedPortUrl()));
  const mode = new Vcr({ dir: CASSETTES }).mode();
  for (const note of plan.notes) process.stdout.write(`examples: note: ${note}\n`);
  process.stdout.write(
    `examples: mode ${mode}; fixtures ${CASSETTES}\n` +
      `examples: ${provider.describe()}${standIn ? (latencyMs ? ` (stand-in latency ${latencyMs} ms)` : "") : ""}\n`,
  );
  const collector = new ReportCollector(path.join(__dirname, "..", ".."), {
    http: () => standIn?.count() ?? 0,
    toolRuns: () => shop.toolRuns,
  });

  return {
    beforeAll(): void {
      collector.start();
    },
    afterEach(this: HookContext): void {
      collector.testEnded(this.currentTest?.file, this.currentTest?.state);
    },
    async afterAll(): Promise<void> {
      const received = standIn?.count() ?? 0;
      await standIn?.close();
      const report = collector.finish({ mode, provider: provider.describe(), cassettes: CASSETTES, standIn: !!standIn });
      if (process.env.EXAMPLES_REPORT) writeReport(process.env.EXAMPLES_REPORT, report);
      if (mode === "replay_only" && received > 0) {
        const paths = standIn!.requests.map((r) => `${r.method} ${r.path}`).join(", ");
        throw new Error(
          `examples: under replay_only the stand-in provider received ${received} request(s) (${paths}); a replay must make none.\n` +
            `  fixtures: ${CASSETTES}\n` +
            `  Some call bypasses langchain-vcr (a client built without cache: vcr.cache, an unwrapped embeddings or a bypass scope).`,
        );
      }
    },
  };
}
