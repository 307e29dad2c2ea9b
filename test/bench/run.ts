/**
 * `npm run bench`: every benchmark of issue #9 in one run, printed as markdown (progress on
 * stderr). Not part of `npm test`: timings are measured and reported, never asserted —
 * only correctness is (a replayed contender that reaches the provider aborts the run).
 *
 *   npm run bench                      # the full run (~4 min on 2 CPUs)
 *   npm run bench -- --quick           # fewer rounds, directories up to 1,000 fixtures
 *   npm run bench -- --only esm,suite  # sections: import esm memory suite chat breakdown agent embeddings streaming scale recording install runners review
 *   npm run bench -- --out /tmp/bench.md
 */
import "./env"; // first: captures the platform fetch before nock patches it
import * as fs from "node:fs";
import * as os from "node:os";
import { benchAgent } from "./agent";
import { benchBreakdown } from "./breakdown";
import { benchChat, benchChatProcesses } from "./chat";
import { benchEmbeddings, EMBED_DIMS, EMBED_TEXTS } from "./embeddings";
import { benchInstall } from "./install";
import { benchHotPathEsm, type HotPathSet } from "./hotPathEsm";
import { benchImportCost, importMedian } from "./importCost";
import { benchMemory } from "./memory";
import { benchSuite, SUITE_FILES, SUITE_TESTS as WHOLE_SUITE_TESTS } from "./suite";
import { log, muteRecordingNotices, removeTmpDirs } from "./env";
import { machineLines } from "./machine";
import { benchRecording, CONCURRENT } from "./recording";
import { benchRunners, runnerOverhead, SUITE_TESTS } from "./runners";
import { benchReview } from "./review";
import { benchScale, childSummary, pairedStartupRatio } from "./scale";
import { byPredecessorTable, fmtBytes, fmtRatio, fmtTime, median, pairedRatio, table, timingTable } from "./stats";
import { benchStreaming } from "./streaming";
import type { Measured } from "./harness";

const SECTIONS = [
  "import",
  "esm",
  "memory",
  "suite",
  "chat",
  "breakdown",
  "agent",
  "embeddings",
  "streaming",
  "scale",
  "recording",
  "install",
  "runners",
  "review",
] as const;
type Section = (typeof SECTIONS)[number];

/** Fresh processes the full run measures section 1 in. */
const CHAT_PROCESSES = 5;

interface Args {
  quick: boolean;
  only: Set<Section>;
  out?: string;
  sizes: number[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { quick: false, only: new Set(SECTIONS), sizes: [10, 1000, 10000, 100000] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
      if (v === undefined) throw new Error(`bench: ${a} needs a value`);
      return v;
    };
    if (a === "--quick") args.quick = true;
    else if (a.startsWith("--only")) {
      const names = value().split(",");
      for (const n of names)
        if (!(SECTIONS as readonly string[]).includes(n)) throw new Error(`bench: unknown section "${n}". Sections: ${SECTIONS.join(", ")}`);
      args.only = new Set(names as Section[]);
    } else if (a.startsWith("--out")) args.out = value();
    else if (a.startsWith("--sizes")) args.sizes = value().split(",").map(Number);
    else throw new Error(`bench: unknown argument "${a}". Usage: npm run bench -- [--quick] [--only ${SECTIONS.join(",")}] [--out file] [--sizes 10,1000]`);
  }
  if (args.quick && !argv.some((a) => a.startsWith("--sizes"))) args.sizes = [10, 1000];
  return args;
}

interface Target {
  what: string;
  goal: string;
  measured: number;
  pass: boolean;
  note?: string;
  /** how `measured` is printed (default "×", a ratio) */
  unit?: string;
}

/** `a`'s row / `b`'s row (by name prefix), as a ratio of `q` (pooled: the ratio of medians) or `paired` (stats.ts `pairedRatio`). */
const ratioOf = (rows: Measured[], a: string, b: string, q: ((s: number[]) => number) | "paired" = median): number => {
  const find = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
  const x = find(a);
  const y = find(b);
  if (!x || !y) return NaN;
  return q === "paired" ? pairedRatio(x.samples, y.samples) : q(x.samples) / q(y.samples);
};

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const q = args.quick;
  const out: string[] = [];
  const targets: Target[] = [];
  const started = Date.now();
  const section = async (name: Section, title: string, body: () => Promise<string[]>) => {
    if (!args.only.has(name)) return;
    const t0 = Date.now();
    log(`bench: ${title} ...`);
    out.push(`## ${title}`, "", ...(await body()), "");
    log(`bench: ${title}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };
  const unmute = muteRecordingNotices();
  try {
    out.push(
      "# langchain-vcr benchmarks",
      "",
      "Command: `npm run bench" + (process.argv.length > 2 ? " -- " + process.argv.slice(2).join(" ") : "") + "`",
      "",
      ...machineLines(),
      "",
    );
    out.push(
      "Every table of calls timed in one process: contenders interleaved round-robin (section 1: in each of five processes) after a warm-up, the order shuffled every round (seeded), so each contender runs after each other one about equally often (the sections timing whole processes rotate their order);",
      "each call timed on its own; median and p95 per call; ratios against the table's first row.",
      "",
    );

    await section("import", "A. Import cost over @langchain/core (packed build, fresh processes)", async () => {
      const r = benchImportCost({ processes: q ? 3 : 9 });
      const rows = r.rows.map((row) => ({ row, m: importMedian(row) }));
      for (const { row, m } of rows)
        targets.push({ what: `Import: ${row.system} entry, added over @langchain/core`, goal: "≤ 20 ms", measured: m.added, pass: m.added <= 20, unit: " ms" });
      return [
        `Method: a consumer project with langchain-vcr unpacked from \`npm pack\` (${r.tarball}); ${r.rows[0].addedMs.length} fresh Node processes per module system,`,
        "ESM and CommonJS alternating (one more of each first, not counted, to warm the disk cache). Each process loads the seven",
        '@langchain/core modules langchain-vcr uses (timed: "core"), then langchain-vcr (timed: "added"). Each process is also checked',
        "to load no file of the other module system's build (ESM: nothing from dist/cjs nor core's .cjs files).",
        "",
        table(
          ["module system", "@langchain/core (median)", "langchain-vcr added (median)", "added, every process"],
          rows.map(({ row, m }) => [
            row.system,
            `${m.core.toFixed(0)} ms`,
            `${m.added.toFixed(1)} ms`,
            row.addedMs.map((x) => x.toFixed(0)).join(", ") + " ms",
          ]),
        ),
      ];
    });

    await section("esm", "B. Hot path: three-way, ESM consumer of the packed build (headline)", async () => {
      const opts = { processes: q ? 1 : 3, warmup: 200, rounds: q ? 1000 : 3000 };
      const sets = await benchHotPathEsm(opts);
      const perRun = (set: HotPathSet, a: string, b: string) => sets[set].runs.map((run) => ratioOf(run, a, b));
      const line = (set: HotPathSet, a: string, b: string, label: string) => {
        const r = perRun(set, a, b);
        return `${label}: ${r.map(fmtRatio).join(", ")} (median ${fmtRatio(median(r))})`;
      };
      const vsMemory = median(perRun("headline", "VcrCache", "InMemoryCache"));
      targets.push({
        what: "ESM hot path: VcrCache hit vs InMemoryCache hit (three-way)",
        goal: "≤ 1.25× (stretch 1.15×)",
        measured: vsMemory,
        pass: vsMemory <= 1.25,
      });
      return [
        `Method: contenders InMemoryCache, VcrCache and LocalFileCache (@langchain/classic), each on its own real ChatOpenAI, interleaved`,
        `round-robin (the order shuffled every round, so each runs after each other one about equally often), ${opts.warmup} warm-up calls each, then ${opts.rounds.toLocaleString("en-US")} timed rounds (one call per contender per round,`,
        `each timed on its own), in ${opts.processes} fresh process(es) of an ESM consumer (\`import\`) of the packed build; the table pools the samples.`,
        "Each contender records its one call against the loopback fake first, and the cache files are then dated an hour back, as a",
        "suite's committed fixtures are (a fixture written within the last second is re-read on every replay), and the warm-up starts a",
        "second later (a descriptor is held only on a file last changed more than a second before). Two more sets, same method,",
        "run in processes alternating with these (headline, floor, two-way, headline, ...): they are the next two tables.",
        "",
        timingTable(sets.headline.pooled),
        "",
        `Median ratio per process — ${line("headline", "VcrCache", "InMemoryCache", "VcrCache / InMemoryCache")};`,
        `${line("headline", "LocalFileCache", "InMemoryCache", "LocalFileCache / InMemoryCache")}. Checked: 0 provider requests while timing.`,
        "",
        "The same samples by the call that ran just before (median per call, pooled; with the order shuffled, each contender follows each other one about equally often, and itself about a quarter as often):",
        "",
        byPredecessorTable(sets.headline.pooled),
        "",
        "**The freshness floor** — VcrCache's place taken by an InMemoryCache hit preceded by one `fs.fstatSync` of a descriptor open on a",
        "fixture file: the one system call a replay must make never to replay a file another process has rewritten since, as a replay of a",
        "kept fixture makes it (src/store/parsedCache.ts, heldFiles.ts):",
        "",
        timingTable(sets.floor.pooled),
        "",
        `${line("floor", "InMemoryCache hit + one", "InMemoryCache hit (", "(InMemoryCache + fstatSync) / InMemoryCache")}.`,
        "",
        "By the call that ran just before:",
        "",
        byPredecessorTable(sets.floor.pooled),
        "",
        "**Two-way** — InMemoryCache and VcrCache alone, without LocalFileCache (whose reads leave the process waiting on the thread pool,",
        "and its CPU idle, between calls: what runs next runs on a cold CPU):",
        "",
        timingTable(sets["two-way"].pooled),
        "",
        `${line("two-way", "VcrCache", "InMemoryCache", "VcrCache / InMemoryCache")}.`,
      ];
    });

    await section("memory", "B2. Memory over 100,000 replays of 1,000 distinct fixtures", async () => {
      const fixtures = 1000;
      const replays = q ? 20000 : 100000;
      const readings = await benchMemory({ fixtures, replays });
      const mib = (b: number) => `${(b / (1 << 20)).toFixed(1)} MiB`;
      const growth = readings[readings.length - 1].heapUsed - readings[0].heapUsed;
      targets.push({
        what: `Memory: heap growth from 10,000 to ${replays.toLocaleString("en-US")} replays`,
        goal: "flat (≤ 2 MiB)",
        measured: growth / (1 << 20),
        pass: growth <= 2 << 20,
        unit: " MiB",
      });
      return [
        `Method: one fresh process of an ESM consumer of the packed build (\`--expose-gc\`): ${fixtures.toLocaleString("en-US")} distinct chat fixtures recorded against the`,
        `loopback fake and dated an hour back, then replayed ${replays.toLocaleString("en-US")} times round-robin by one real ChatOpenAI with a VcrCache; heapUsed after a`,
        "full GC every 10,000 replays.",
        "",
        table(
          ["replays", "heapUsed after GC"],
          readings.map((r) => [r.replays.toLocaleString("en-US"), mib(r.heapUsed)]),
        ),
        "",
        `Growth from the first reading to the last: ${mib(growth)}.`,
      ];
    });

    await section(
      "suite",
      `C. Whole suite: ${WHOLE_SUITE_TESTS.toLocaleString("en-US")} replayed tests over ${SUITE_FILES} files, mocha and vitest`,
      async () => {
        const rounds = q ? 1 : 3;
        const mochaRounds = q ? 1 : 20;
        const results = await benchSuite({ rounds, mochaRounds });
        const lines = [
          `Method: a generated suite in a consumer of the packed build: ${SUITE_FILES} test files of ${WHOLE_SUITE_TESTS / SUITE_FILES} tests, each test one invoke of a real ChatOpenAI`,
          "with its own question. Contenders: langchain-vcr replaying (`replay_only`, the runner's plugin loaded as documented: mocha",
          "`--require langchain-vcr/mocha` with CommonJS spec files, vitest `plugins: [langchainVcr()]` with ESM test files); the same suite with",
          "an InMemoryCache per file pre-filled in its before-all hook (no plugin); the same suite making live calls to the loopback fake (no",
          "cache, no plugin); under mocha also the floor of any replay that reads each test's fixture once: the InMemoryCache suite whose",
          "cache also reads, `JSON.parse`s and SHA-256-hashes one fixture file per lookup (each test its own; no plugin; a first read needs no stat).",
          `Wall time of the runner process, spawn to exit, runner defaults (vitest: forks, one fresh module graph per file).`,
          `${rounds} round(s) for vitest and ${mochaRounds} for mocha (whose suite takes under a second), each running every contender of the runner once in`,
          "rotated order, sequentially. Two ratios: pooled (the ratio of the contenders' medians) and paired (the median over rounds of the ratio",
          "within a round, which cancels a drift of the machine's speed); the target is met when both are. Fixtures recorded once first,",
          "dated an hour back. Checked: replay and pre-filled runs made 0 provider requests, live runs exactly 1,000.",
          "",
        ];
        for (const r of results) {
          const ratio = ratioOf(r.rows, "langchain-vcr", "InMemoryCache");
          const paired = ratioOf(r.rows, "langchain-vcr", "InMemoryCache", "paired");
          targets.push({
            what: `Whole suite under ${r.runner}: langchain-vcr replaying vs InMemoryCache pre-filled (pooled; paired ${fmtRatio(paired)})`,
            goal: "≤ 1.10×",
            measured: ratio,
            pass: ratio <= 1.1 && paired <= 1.1,
          });
          lines.push(
            `${r.runner}:`,
            "",
            timingTable(r.rows, "suite"),
            "",
            `langchain-vcr / InMemoryCache: ${fmtRatio(ratio)} pooled, ${fmtRatio(paired)} paired; live / langchain-vcr: ${fmtRatio(ratioOf(r.rows, "live", "langchain-vcr"))}.` +
              (r.rows.some((row) => row.name.startsWith("the floor"))
                ? ` The floor / InMemoryCache: ${fmtRatio(ratioOf(r.rows, "the floor", "InMemoryCache"))} pooled, ${fmtRatio(ratioOf(r.rows, "the floor", "InMemoryCache", "paired"))} paired;` +
                  ` langchain-vcr / the floor: ${fmtRatio(ratioOf(r.rows, "langchain-vcr", "the floor"))} pooled, ${fmtRatio(ratioOf(r.rows, "langchain-vcr", "the floor", "paired"))} paired.`
                : ""),
            "",
          );
        }
        return lines;
      },
    );

    await section("chat", "1. Chat replay of one recorded invoke (real ChatOpenAI)", async () => {
      // full run: five fresh processes, pooled (one process's JIT or a noisy neighbour moves a ratio by ±0.1×)
      const opts = { rounds: q ? 30 : 100, warmup: q ? 200 : 1000 };
      const { pooled: r, runs } = q ? { pooled: await benchChat(opts), runs: [] } : await benchChatProcesses(CHAT_PROCESSES, opts);
      const acrossRuns = (a: string, b: string) => (runs.length ? median(runs.map((run) => ratioOf(run.results, a, b))) : ratioOf(r.results, a, b));
      const perProcess = (a: string, b: string) => runs.map((run) => fmtRatio(ratioOf(run.results, a, b))).join(", ");
      const vsMemory = acrossRuns("VcrCache", "InMemoryCache");
      const vsFile = acrossRuns("VcrCache", "LocalFileCache");
      const nockVs = acrossRuns("nock", "VcrCache");
      targets.push(
        { what: "VcrCache hit vs InMemoryCache hit", goal: "≤ 1.5× (stretch 1.3×)", measured: vsMemory, pass: vsMemory <= 1.5 },
        { what: "VcrCache hit vs LocalFileCache hit", goal: "≤ 1.2×", measured: vsFile, pass: vsFile <= 1.2 },
        { what: "nock.back replay vs VcrCache hit", goal: "≥ 5× (VcrCache faster)", measured: nockVs, pass: nockVs >= 5 },
      );
      return [
        runs.length
          ? `${runs.length} fresh processes, one after another, each running every contender interleaved (warm-up ${opts.warmup} calls per cache contender, 100 for nock and live; ${opts.rounds} rounds); the table pools their samples.`
          : `One process (--quick): warm-up ${opts.warmup} calls per cache contender; ${opts.rounds} rounds.`,
        "",
        timingTable(r.results),
        "",
        ...(runs.length
          ? [
              `Median ratio per process — VcrCache / InMemoryCache: ${perProcess("VcrCache", "InMemoryCache")} (median ${fmtRatio(vsMemory)});`,
              `VcrCache / LocalFileCache: ${perProcess("VcrCache", "LocalFileCache")}; nock / VcrCache: ${perProcess("nock", "VcrCache")}.`,
              "The targets below use the median of the per-process ratios.",
              "",
            ]
          : []),
        `The VcrCache fixture is ${fmtBytes(r.fixtureBytes)}. nock.back runs in \`dryrun\` mode after one \`record\`: each call loads the`,
        "cassette (`nock.back(...)`), makes the call through nock's fetch interceptor, and calls `nockDone()`, as a test would.",
        "The live and cache contenders use the platform fetch (captured before nock loaded), so nock's interceptor",
        "costs only the nock row. Every replay row is checked: no provider request during timing.",
      ];
    });

    await section("breakdown", "1b. Where a VcrCache hit spends its time", async () => {
      const r = await benchBreakdown({ rounds: q ? 30 : 100, warmup: q ? 100 : 300 });
      return [
        "Each step of the hit path run on its own, with the real objects of a replayed invoke, interleaved with the whole invoke.",
        "Steps in isolation run hotter (caches warm, no GC pressure from the rest) than inside the invoke; see BENCHMARKS.md for the analysis.",
        "",
        timingTable(r),
      ];
    });

    await section("agent", "2. Agent replay: createAgent, two model turns and one tool", async () => {
      const r = await benchAgent({ rounds: q ? 8 : 25, warmup: q ? 3 : 8 });
      return [timingTable(r, "run"), "", "Replay: 0 provider requests and 0 tool-body runs during timing (checked)."];
    });

    await section("embeddings", `3. Embeddings: embedDocuments of ${EMBED_TEXTS.toLocaleString("en-US")} texts (${EMBED_DIMS} dimensions)`, async () => {
      const r = await benchEmbeddings({ rounds: q ? 3 : 6, warmup: 1, fillRounds: q ? 1 : 2 });
      targets.push({
        what: `Embeddings replay (${EMBED_TEXTS} texts) vs CacheBackedEmbeddings + LocalFileStore`,
        goal: "≤ 1.0× (no slower)",
        measured: ratioOf(r.replay, "vcr.embeddings", "CacheBacked"),
        pass: ratioOf(r.replay, "vcr.embeddings", "CacheBacked") <= 1.0,
      });
      return [timingTable(r.replay, "1,000 texts"), "", "First fill (recording into an empty directory / store):", "", timingTable(r.fill, "1,000 texts")];
    });

    await section("streaming", "4. Streaming: replayed .stream() vs replayed invoke", async () => {
      const r = await benchStreaming({ rounds: q ? 15 : 40, warmup: q ? 10 : 30 });
      return [timingTable(r.results), "", `The recorded stream has ${r.chunks} chunks; the per-chunk row is the whole-stream time divided by ${r.chunks}.`];
    });

    await section("scale", "5. Scale: 10 to 100,000 fixtures in the directory", async () => {
      const r = await benchScale({
        sizes: args.sizes,
        rounds: q ? 30 : 100,
        warmup: q ? 50 : 200,
        childRuns: q ? 2 : 15, // process start varies by ±15 % on a shared machine
        childCalls: q ? 300 : 1000,
        slowRounds: q ? 2 : 3,
      });
      const base = childSummary(r.children[0]);
      const lastName = r.sizes[r.sizes.length - 1].toLocaleString("en-US");
      targets.push(
        {
          what: `Scale: per-call replay, ${lastName} vs ${r.sizes[0]} fixtures`,
          goal: "≤ 1.10×",
          measured: ratioOf(r.perCall, lastName, r.perCall[0].name),
          pass: ratioOf(r.perCall, lastName, r.perCall[0].name) <= 1.1,
        },
        {
          what: `Scale: start-up to first replay (paired rounds), ${lastName} vs ${r.sizes[0]} fixtures`,
          goal: "≤ 1.10×",
          measured: pairedStartupRatio(r.children[r.children.length - 1], r.children[0]),
          pass: pairedStartupRatio(r.children[r.children.length - 1], r.children[0]) <= 1.1,
        },
      );
      const childRows = r.children.map((c) => {
        const s = childSummary(c);
        return [
          c.fixtures.toLocaleString("en-US"),
          `${s.loadedMs.toFixed(0)} ms`,
          `${s.firstReplayMs.toFixed(0)} ms`,
          fmtRatio(s.firstReplayMs / base.firstReplayMs),
          fmtRatio(pairedStartupRatio(c, r.children[0])),
          `${s.ownMs.toFixed(1)} ms`,
          fmtTime(s.firstCallUs),
          fmtTime(s.medianUs),
          fmtRatio(s.medianUs / base.medianUs),
          fmtBytes(s.maxRssKiB * 1024),
        ];
      });
      return [
        "Per-call replay cost (this process, one Vcr per directory, replay_only, interleaved):",
        "",
        timingTable(r.perCall),
        "",
        `Fresh child processes (library precompiled to JS, as an installed package; ${r.children[0].loadedMs.length} runs per size, interleaved; medians unless marked):`,
        "",
        table(
          [
            "fixtures",
            "start → modules loaded",
            "start → first replay done",
            "vs row 1",
            "start → first replay vs row 1, paired by round",
            "modules loaded → first replay",
            "first call",
            "per call (median)",
            "vs row 1",
            "peak RSS",
          ],
          childRows,
        ),
        "",
        "Process start (loading Node, LangChain and langchain-vcr, before langchain-vcr touches any directory) varies by ±15 % between",
        "identical runs on a shared machine, and its median moves by as much between directory sizes as the machine's load drifts. Each",
        'round runs every size once, seconds apart, so the start-up target uses the median of the per-round ratios ("paired by round").',
        '"modules loaded → first replay" (median per run: `new Vcr`, the model, one replayed invoke) is the part the fixture directory could affect.',
        "",
        "Recording one new chat fixture in `record_or_replay` (live call + write + the near-miss report, which scans the directory):",
        "",
        timingTable(r.recordOne),
        "",
        "A `replay_only` miss (VcrMissError with the nearest recorded fixture, which scans the directory):",
        "",
        timingTable(r.missOne),
        "",
        `Filler fixtures: ${(r.sizes[r.sizes.length - 1] - 1).toLocaleString("en-US")} real chat fixtures (formatFixture + requestHash) written in ${r.fillerSeconds.toFixed(1)} s; smaller directories are hard links to a subset.`,
      ];
    });

    await section("recording", "6. Recording", async () => {
      const r = await benchRecording({ rounds: q ? 15 : 40, warmup: q ? 10 : 20, slowRounds: q ? 3 : 6 });
      return [
        `Writing one ${fmtBytes(r.fixtureBytes)} chat fixture:`,
        "",
        timingTable(r.writes),
        "",
        "One invoke that misses and records, against a live invoke:",
        "",
        timingTable(r.invokes),
        "",
        `${CONCURRENT} concurrent invokes (Promise.all), wall time for the batch:`,
        "",
        timingTable(r.concurrent, "batch"),
      ];
    });

    await section("install", "7. Zero-touch: replay through vcr.install() vs explicit cache: vcr.cache", async () => {
      const r = await benchInstall({ rounds: q ? 30 : 100, warmup: q ? 200 : 1000 });
      const ratio = ratioOf(r, "vcr.install()", "explicit");
      targets.push({ what: "vcr.install() hit vs explicit `cache: vcr.cache` hit", goal: "≤ 1.05×", measured: ratio, pass: ratio <= 1.05 });
      return [
        "The same Vcr and fixture, the same real ChatOpenAI, interleaved; the last two rows are one InMemoryCache model with and without a Vcr installed.",
        "",
        timingTable(r),
        "",
        "Replay rows checked: no provider request during timing.",
      ];
    });

    await section("runners", `8. Runner adapters: a suite of ${SUITE_TESTS.toLocaleString("en-US")} replayed tests with the plugin vs without`, async () => {
      const rows = await benchRunners({ rounds: q ? 2 : 5 });
      const lines = rows.map((r) => {
        const o = runnerOverhead(r);
        targets.push(
          { what: `${r.runner} adapter: suite time with vs without`, goal: "≤ 1.05×", measured: o.ratio, pass: o.ratio <= 1.05 },
          { what: `${r.runner} adapter: per-test cost`, goal: "≤ 50 µs", measured: o.perTestUs, pass: o.perTestUs <= 50, unit: " µs" },
        );
        return [
          r.runner,
          `${median(r.withoutMs).toFixed(0)} ms`,
          `${median(r.withMs).toFixed(0)} ms`,
          fmtRatio(o.ratio),
          `${o.perTestUs.toFixed(1)} µs`,
          `${median(r.emptyMs).toFixed(0)} ms (${o.emptyPerTestUs.toFixed(1)} µs)`,
          `${(median(r.wallWithoutMs) / 1000).toFixed(2)} s / ${(median(r.wallWithMs) / 1000).toFixed(2)} s`,
        ];
      });
      return [
        `Each runner in a child process on the built package; each test one replayed ChatOpenAI invoke; ${q ? 2 : 5} rounds, the variants' order rotated every round.`,
        "Suite time is measured inside the test process (first test start → last test end), so process start-up is not in it.",
        '"empty hooks": the same runner with a do-nothing plugin that registers the hooks langchain-vcr uses, empty — the runner\'s own price for per-test hooks.',
        "",
        table(["runner", "suite without", "suite with", "ratio", "per test", "empty hooks (per test)", "whole process without / with"], lines),
      ];
    });

    await section("review", "9. Fixture review and upgrades: diff and migrate", async () => {
      const r = benchReview({ fixtures: 10000, rounds: q ? 2 : 5, migrateSizes: q ? [1000] : [1000, 10000] });
      const diffS = median(r.diffMs) / 1000;
      targets.push({
        what: `diff over ${r.fixtures.toLocaleString("en-US")} fixtures with ${r.changed} changed`,
        goal: "< 5 s",
        measured: diffS,
        pass: diffS < 5,
        note: "seconds",
      });
      return [
        `A git repository with ${r.fixtures.toLocaleString("en-US")} chat fixtures committed, then 50 prompt edits (old file removed, edited one written) and 50 in-place re-records.`,
        `Found: ${r.found.changed} changed, ${r.found.rerecorded} re-recorded, ${r.found.added} added, ${r.found.removed} removed.`,
        "",
        table(
          ["run", "time"],
          [
            [`diffFixtures in this process (median of ${r.diffMs.length})`, `${(median(r.diffMs) / 1000).toFixed(2)} s`],
            ...(r.cliMs !== undefined
              ? [["`langchain-vcr diff --format markdown`, a child process (built CLI, one run)", `${(r.cliMs / 1000).toFixed(2)} s`]]
              : []),
          ],
        ),
        "",
        "`migrate` of 0.1.0 chat fixtures (read, upgrade, atomic write, remove the old file):",
        "",
        table(
          ["fixtures", "time", "files per second"],
          r.migrate.map((m) => [m.fixtures.toLocaleString("en-US"), `${m.seconds.toFixed(2)} s`, Math.round(m.perSecond).toLocaleString("en-US")]),
        ),
      ];
    });

    if (targets.length) {
      out.push(
        "## Targets (issues #9 and #19)",
        "",
        table(
          ["target", "goal", "measured (median)", "met"],
          targets.map((t) => [
            t.what,
            t.goal,
            Number.isFinite(t.measured) ? `${t.measured.toFixed(t.unit ? 1 : 2)}${t.unit ?? (t.note === "seconds" ? " s" : "×")}` : "–",
            t.pass ? "yes" : "**no**",
          ]),
        ),
        "",
      );
    }
    out.push(
      `Total bench time ${((Date.now() - started) / 1000).toFixed(0)} s; load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" / ")}.`,
      "",
    );
  } finally {
    const swallowed = unmute();
    if (swallowed) log(`bench: ${swallowed} "recorded a new fixture" notices were produced and not printed`);
    log("bench: removing temp directories ...");
    removeTmpDirs();
  }
  const text = out.join("\n");
  process.stdout.write(text + "\n");
  if (args.out) fs.writeFileSync(args.out, text + "\n");
}

main().catch((e) => {
  process.stderr.write(`${e?.stack ?? e}\n`);
  removeTmpDirs();
  process.exit(1);
});
