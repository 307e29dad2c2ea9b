/**
 * Summarises a `.cpuprofile` (from `node --cpu-prof`): self and inclusive time per function,
 * and inclusive time per source file of langchain-vcr. Used to find where replay time goes.
 *
 *   node -r ts-node/register/transpile-only test/bench/cpuprofile.ts <file.cpuprofile> [calls] [filter]
 *
 * With `calls` (the number of invokes profiled) every line also shows µs per call.
 */
import * as fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function summarise(profile: Profile, calls = 0, filter = ""): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const key = (n: Node) => `${n.callFrame.functionName || "(anonymous)"} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  const fileIncl = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const leaf = byId.get(id)!;
    self.set(key(leaf), (self.get(key(leaf)) ?? 0) + us);
    const seen = new Set<string>();
    const seenFile = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      const k = key(n);
      if (!seen.has(k)) {
        seen.add(k);
        incl.set(k, (incl.get(k) ?? 0) + us);
      }
      const f = short(n.callFrame.url);
      if (f.startsWith("src/") && !seenFile.has(f)) {
        seenFile.add(f);
        fileIncl.set(f, (fileIncl.get(f) ?? 0) + us);
      }
    }
  }
  const pct = (us: number) => ((100 * us) / total).toFixed(1).padStart(5) + "%" + (calls ? `  ${(us / calls).toFixed(2).padStart(6)} µs` : "");
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .filter(([k]) => k.includes(filter))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${pct(v)}  ${k}`)
      .join("\n");
  return [
    `total sampled ${(total / 1000).toFixed(0)} ms`,
    "== self time ==",
    top(self, 30),
    "== inclusive time ==",
    top(incl, 60),
    "== inclusive time per langchain-vcr file ==",
    top(fileIncl, 30),
  ].join("\n");
}

function short(url: string): string {
  const i = url.indexOf("/node_modules/");
  if (i >= 0) return url.slice(i + 14);
  const j = url.indexOf("/src/");
  if (j >= 0) return url.slice(j + 1);
  const k = url.indexOf("/test/");
  if (k >= 0) return url.slice(k + 1);
  return url.replace(/^file:\/\//, "") || "(native)";
}

if (require.main === module) {
  const [file, calls, filter] = process.argv.slice(2);
  process.stdout.write(summarise(JSON.parse(fs.readFileSync(file, "utf8")) as Profile, Number(calls ?? 0), filter ?? "") + "\n");
}
