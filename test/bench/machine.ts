/** The machine and versions a bench run measured, for the report header. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

function version(pkg: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync("/proc/cpuinfo", "utf8"));
    if (m) return m[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? "unknown";
}

export function machineLines(): string[] {
  const packages = ["@langchain/core", "@langchain/openai", "openai", "langchain", "@langchain/classic", "nock"];
  return [
    `- date: ${new Date().toISOString()}`,
    `- CPU: ${cpuModel()}, ${os.availableParallelism()} CPUs available (nproc); ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
    `- OS: ${os.type()} ${os.release()} (${os.arch()}); temp dir ${os.tmpdir()}`,
    `- Node ${process.version}; ${packages.map((p) => `${p} ${version(p)}`).join(", ")}`,
    `- load average at start (1/5/15 min): ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")}`,
  ];
}
