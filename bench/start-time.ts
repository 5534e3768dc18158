/**
 * Start time and idle memory of the app, run from TypeScript through tsx vs compiled (`npm run build` first):
 *   npm run build && npx tsx bench/start-time.ts [--runs=5] [--idle=5000]
 * Each mode starts in setup mode (no APP_ID) on its own embedded database, already created by one
 * unmeasured warm-up start (which also fills tsx's transform cache), so a measured run is a restart.
 * Start time: spawn to the first 200 from /health. Idle RSS: VmRSS of the process tree (the tsx CLI
 * runs the app in a child node process) after `--idle` ms of no requests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { APP_NODE_OPTIONS } from "../src/system/app-node-options.js";
import { freePort } from "../test/helpers/free-port.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const RUNS = arg("runs", 5);
const IDLE_MS = arg("idle", 5000);

const modes = {
  "tsx src/index.ts (npm start)": [join(ROOT, "node_modules/.bin/tsx"), [...APP_NODE_OPTIONS, "src/index.ts"]],
  "node --import tsx src/index.ts (old image CMD)": [process.execPath, ["--import", "tsx", "src/index.ts"]],
  "node dist/index.js (npm run start:prod, image)": [process.execPath, [...APP_NODE_OPTIONS, "dist/index.js"]],
} as const satisfies Record<string, readonly [string, readonly string[]]>;
type Mode = keyof typeof modes;

if (!existsSync(join(ROOT, "dist/index.js"))) throw new Error("run `npm run build` first");

/** The pid and its descendants (from /proc). */
function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

function rssMiB(pid: number): number {
  let kib = 0;
  for (const p of tree(pid)) {
    const line = readFileSync(`/proc/${p}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    kib += Number(line?.split(/\s+/)[1] ?? 0);
  }
  return kib / 1024;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await once(child, "exit");
}

async function startOnce(mode: Mode, dataDir: string): Promise<{ ms: number; rss: number }> {
  const [command, args] = modes[mode];
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    },
    stdio: "ignore",
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode} exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error(`${mode}: no /health within 120 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(10);
    }
    const ms = performance.now() - started;
    await sleep(IDLE_MS);
    return { ms, rss: rssMiB(child.pid!) };
  } finally {
    await stop(child);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const dirs = Object.fromEntries(Object.keys(modes).map((m) => [m, mkdtempSync(join(tmpdir(), "nm-start-"))])) as Record<
  Mode,
  string
>;
const results = Object.fromEntries(Object.keys(modes).map((m) => [m, [] as { ms: number; rss: number }[]])) as Record<
  Mode,
  { ms: number; rss: number }[]
>;
try {
  for (const mode of Object.keys(modes) as Mode[]) await startOnce(mode, join(dirs[mode], "data")); // warm-up
  for (let run = 0; run < RUNS; run++) {
    for (const mode of Object.keys(modes) as Mode[]) {
      const r = await startOnce(mode, join(dirs[mode], "data")); // interleaved, so load on the machine hits every mode alike
      results[mode].push(r);
      process.stderr.write(`${mode}: ${r.ms.toFixed(0)} ms, ${r.rss.toFixed(1)} MiB\n`);
    }
  }
} finally {
  for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
}

console.log(`\n${RUNS} runs each, idle ${IDLE_MS} ms; median (min–max)`);
console.log("| start | to first /health 200 | idle RSS |\n| --- | --- | --- |");
for (const mode of Object.keys(modes) as Mode[]) {
  const ms = results[mode].map((r) => r.ms);
  const rss = results[mode].map((r) => r.rss);
  console.log(
    `| \`${mode}\` | ${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)}) | ` +
      `${median(rss).toFixed(0)} MiB (${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)}) |`,
  );
}
