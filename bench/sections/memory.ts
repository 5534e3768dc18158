/**
 * 9. Memory: the resident memory (RSS, from /proc) of every process of the app, summed, as `npm start` runs
 * it — npm itself, the shell it runs the script in, the app, its worker process, the embedded database's
 * process, the git launchers and whatever they run at that moment — at idle 40 s after it says it is
 * listening, at the end of each of several rounds of 1,000 `pull_request.synchronize` deliveries (50 PRs,
 * each delivery naming the PR's next real commit, so the workers fetch, diff, review and post), once that
 * round's work has drained, and after a 2,000-file review; beside a bare Probot app's node process (the
 * same deliveries, the same moments). On the embedded database and on PostgreSQL; there the database
 * server's backends serving the app are reported apart (they are not the app's processes). Leak check:
 * the last round's drained RSS within 10% of the second round's (the first warms caches and JIT).
 *
 * The app runs with `npm start`'s WORKER_IDLE_EXIT (60 s; --smoke: 3 s, said in the output): its worker
 * process is started when a delivery queues a job and exits after that long with nothing to do. The idle
 * sample at start is taken before any job (the worker process has not started, or has exited after the
 * start-up delivery sweep: it is in the sample if it runs); a second idle sample is taken after the last
 * review, once the app has been idle longer than WORKER_IDLE_EXIT (and says its workers are idle).
 *
 * GitHub's client-side write pacing is off (a preload through NODE_OPTIONS, compiled here): against the
 * local stand-in it is only waiting. The bare app runs compiled too (esbuild, here), not under tsx.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import { buildSync } from "esbuild";
import postgres from "postgres";
import { GitHubHttpStandIn } from "../lib/github-server.js";
import { postWebhook } from "../lib/post-webhook.js";
import { processTreeRss } from "../lib/process-tree-rss.js";
import { buildRepo, PullHeadMover } from "../lib/repo.js";
import { descendants } from "../../test/helpers/descendants.js";
import { roleOf, rssByRole } from "../lib/tree-roles.js";
import {
  appEnv,
  createDatabase,
  emitResult,
  pullRequestPayload,
  ROOT,
  round,
  sleep,
  SMOKE,
  tempRoot,
} from "../lib/common.js";

const cfg = SMOKE
  ? { idleSeconds: 5, rounds: 2, deliveries: 100, rate: 100, prs: 5, baseFiles: 80, largeFiles: 50, findings: 5 }
  : {
      idleSeconds: 40,
      rounds: 4,
      deliveries: 1000,
      rate: 100,
      prs: 50,
      baseFiles: 2500,
      largeFiles: 2000,
      findings: 30,
    };
/** `npm start`'s default; the smoke run's is short so that it sees the worker process exit too. */
const WORKER_IDLE_EXIT_S = SMOKE ? 3 : 60;
const STEPS_PER_ROUND = Math.ceil(cfg.deliveries / cfg.prs);
const LARGE_PR = 9000;
type DatabaseKind = "embedded" | "postgres";

const root = tempRoot("memory");
const compiled = join(ROOT, "bench/results/memory");
mkdirSync(compiled, { recursive: true });
// In the package (bench/results is ignored) so that their imports resolve from node_modules as from src/.
buildSync({
  entryPoints: {
    "bare-server": join(ROOT, "bench/servers/bare-server.ts"),
    "pacing-off": join(ROOT, "bench/servers/pacing-off.ts"),
  },
  outdir: compiled,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  packages: "external",
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});

const repo = buildRepo(root, cfg.baseFiles, [
  ...Array.from({ length: cfg.prs }, (_, i) => ({
    number: i + 1,
    changedFiles: 1,
    laterPushes: cfg.rounds * STEPS_PER_ROUND,
  })),
  { number: LARGE_PR, changedFiles: cfg.largeFiles, laterPushes: 0 },
]);
const pathOf = (i: number) => `src/m${Math.floor(i / 100)}/file${i}.ts`;
const every = Math.max(1, Math.floor(cfg.largeFiles / cfg.findings));
const scenario = join(root, "scenario.json");
writeFileSync(
  scenario,
  JSON.stringify({
    steps: [
      {
        role: "reviewer",
        match: `Change ${LARGE_PR}`,
        answer: {
          summary: "Several constants changed type.",
          findings: Array.from({ length: cfg.findings }, (_, j) => ({
            path: pathOf(j * every),
            line: [5, 20, 35][j % 3],
            severity: "warning",
            action: "ask-user",
            title: `Constant ${j} became a string`,
            body: `v${j * every} was a number and is compared as one elsewhere.`,
          })),
          resolved: [],
        },
      },
      {
        role: "reviewer",
        answer: {
          summary: "One thing to look at.",
          findings: [
            {
              path: "src/m0/file0.ts",
              line: 5,
              severity: "warning",
              action: "ask-user",
              title: "Changed constant lost its number",
              body: "v0_5 was a number; it is a string now.",
            },
          ],
          resolved: [],
        },
      },
    ],
  }),
);

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
  stop(): Promise<boolean>;
}

/** Starts `command` in a process group of its own (as a terminal does); resolves once it logs its port. */
async function startServer(command: string, args: string[], env: Record<string, string>, log: string) {
  const fd = openSync(log, "a");
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", fd, "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} ${args.join(" ")}: no port within 120 s; see ${log}`)),
      120_000,
    );
    const look = setInterval(() => {
      const m = /LISTENING (\d+)|"port":(\d+),"mode":"app"/.exec(output + readLog(log));
      if (m) {
        clearInterval(look);
        clearTimeout(timer);
        resolve(Number(m[1] ?? m[2]));
      }
    }, 100);
    child.once("exit", (code) => {
      clearInterval(look);
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${output}; see ${log}`));
    });
  });
  return {
    child,
    port,
    output: () => output,
    /** SIGTERM to the group (as Ctrl-C); true when every process of the tree exited by itself within 120 s. */
    async stop() {
      const tree = [child.pid!, ...descendants(child.pid!)];
      process.kill(-child.pid!, "SIGTERM");
      const deadline = Date.now() + 120_000;
      while (tree.some(alive)) {
        if (Date.now() > deadline) {
          for (const pid of tree.filter(alive)) process.kill(pid, "SIGKILL");
          return false;
        }
        await sleep(100);
      }
      return true;
    },
  } satisfies Server;
}

function alive(pid: number): boolean {
  const stat = readLog(`/proc/${pid}/stat`);
  return stat !== "" && !/^\S+ \(.*\) [ZX]/s.test(stat);
}

function readLog(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** RSS of a PostgreSQL server's backends connected to `url`'s database (read from /proc: the server is local). */
async function postgresBackends(url: string): Promise<{ processes: number; rssMiB: number }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const rows = await sql<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  await sql.end();
  let kib = 0;
  let found = 0;
  for (const { pid } of rows) {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readLog(`/proc/${pid}/status`));
    if (m) ((kib += Number(m[1])), found++);
  }
  return { processes: found, rssMiB: round(kib / 1024, 1) };
}

async function measure(kind: DatabaseKind) {
  const pg = kind === "postgres" ? await createDatabase() : undefined;
  const gh = new GitHubHttpStandIn();
  await gh.start();
  const env = {
    ...appEnv(gh.host),
    PORT: "0",
    NODE_OPTIONS: `--import ${join(compiled, "pacing-off.mjs")}`,
  };
  const dataDir = join(root, `app-data-${kind}`);
  const appLog = join(root, `app-${kind}.log`);
  const app = await startServer(
    "npm",
    ["start", "--silent"],
    {
      ...env,
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      DATA_DIR: dataDir,
      FAKE_AGENT_SCENARIO: scenario,
      STOP_GRACE: "60s",
      WORKER_IDLE_EXIT: `${WORKER_IDLE_EXIT_S}s`,
      LOG_FORMAT: "json",
    },
    appLog,
  );
  // Plain node, as the ack section starts it: a Probot app as its authors run it.
  const bare = await startServer(
    process.execPath,
    [join(compiled, "bare-server.mjs")],
    { ...appEnv(gh.host), PORT: "0", LOG_FORMAT: "json" },
    join(root, `bare-${kind}.log`),
  );
  const sample = async () => {
    const tree = processTreeRss(app.child.pid!);
    const byRole = rssByRole(tree.processes);
    const health = (await (await fetch(`http://127.0.0.1:${app.port}/health`)).json()) as { workers?: string };
    return {
      workers: health.workers,
      workerProcessInTree: byRole.worker !== undefined,
      appTreeMiB: tree.totalMiB,
      /** The same tree without npm and its shell: the app started by node itself (the image, systemd). */
      withoutNpmMiB: round(tree.totalMiB - (byRole.npm ?? 0) - (byRole.shell ?? 0), 1),
      appTreePssMiB: tree.totalPssMiB,
      byRole,
      bareMiB: processTreeRss(bare.child.pid!).totalMiB,
      ...(pg ? { postgresServer: await postgresBackends(pg.url) } : {}),
    };
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });
  const failures = { app: 0, bare: 0 };
  const send = async (port: number, target: "app" | "bare", body: string) => {
    const status = await postWebhook(port, agent, "pull_request", randomUUID(), body);
    if (status < 200 || status >= 300) failures[target]++;
  };
  const delivery = (pr: number, step: number) => {
    const chain = repo.heads.get(pr)!;
    return JSON.stringify(
      pullRequestPayload({
        action: "synchronize",
        number: pr,
        baseSha: repo.baseSha,
        headSha: chain[step]!,
        before: step === 0 ? repo.baseSha : chain[step - 1]!,
        updatedAt: new Date(Date.UTC(2026, 0, 1) + step * 1000).toISOString().replace(/\.\d+Z$/, "Z"),
        cloneUrl: repo.bare,
      }),
    );
  };
  /** The app's work is done: every delivery applied, every check run completed, nothing sent to GitHub for 3 s. */
  const drained = async (what: string) => {
    const deadline = Date.now() + 300_000;
    let last = -1;
    let quietSince = Date.now();
    for (;;) {
      if (Date.now() > deadline) throw new Error(`${kind}: ${what} did not drain within 300 s; see ${appLog}`);
      const health = (await (await fetch(`http://127.0.0.1:${app.port}/health`)).json()) as {
        intake?: { backlog: number };
      };
      const open = [...gh.checkRuns.values()].filter((c) => c.status !== "completed").length;
      const requests = [...gh.counts.values()].reduce((a, b) => a + b, 0);
      if (requests !== last) ((last = requests), (quietSince = Date.now()));
      if ((health.intake?.backlog ?? 0) === 0 && open === 0 && Date.now() - quietSince >= 3_000) return;
      await sleep(250);
    }
  };

  await sleep(cfg.idleSeconds * 1000);
  const idle = await sample();

  const mover = new PullHeadMover(repo.bare);
  const rounds = [];
  for (let r = 0; r < cfg.rounds; r++) {
    const reviewsBefore = gh.reviews.length;
    const firstStep = r * STEPS_PER_ROUND + 1;
    const lastStep = firstStep + STEPS_PER_ROUND - 1;
    await mover.move(Array.from({ length: cfg.prs }, (_, i) => [i + 1, repo.heads.get(i + 1)![lastStep]!]));
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, processTreeRss(app.child.pid!).totalMiB)), 500);
    const t0 = performance.now();
    const sent: Promise<void>[] = [];
    for (let k = 0; k < cfg.deliveries; k++) {
      const wait = t0 + (k * 1000) / cfg.rate - performance.now();
      if (wait > 0) await sleep(wait);
      const body = delivery((k % cfg.prs) + 1, firstStep + Math.floor(k / cfg.prs));
      sent.push(send(app.port, "app", body), send(bare.port, "bare", body));
    }
    await Promise.all(sent);
    const endOfLoad = await sample();
    await drained(`round ${r + 1}`);
    clearInterval(sampler);
    await sleep(2_000);
    rounds.push({ endOfLoad, drained: await sample(), peakMiB: peak, reviews: gh.reviews.length - reviewsBefore });
  }
  await mover.close();

  // The 2,000-file review.
  const largeHead = repo.heads.get(LARGE_PR)![0]!;
  let largePeak = 0;
  const largeSampler = setInterval(
    () => (largePeak = Math.max(largePeak, processTreeRss(app.child.pid!).totalMiB)),
    250,
  );
  const t = performance.now();
  await send(
    app.port,
    "app",
    JSON.stringify(
      pullRequestPayload({
        action: "opened",
        number: LARGE_PR,
        baseSha: repo.baseSha,
        headSha: largeHead,
        cloneUrl: repo.bare,
      }),
    ),
  );
  const deadline = Date.now() + 300_000;
  while (![...gh.checkRuns.values()].some((c) => c.head_sha === largeHead && c.status === "completed")) {
    if (Date.now() > deadline)
      throw new Error(`${kind}: the large review did not complete within 300 s; see ${appLog}`);
    await sleep(100);
  }
  const largeMs = performance.now() - t;
  const rightAfterLarge = await sample();
  await drained("the large review");
  clearInterval(largeSampler);
  await sleep(2_000);
  const afterLarge = await sample();
  // Idle again, past WORKER_IDLE_EXIT: the worker process has exited (health says idle) and left the tree.
  const idleFrom = Date.now();
  await sleep((WORKER_IDLE_EXIT_S + 10) * 1000);
  const idleWaitDeadline = Date.now() + 60_000;
  while (processTreeRss(app.child.pid!).processes.some((p) => roleOf(p.command) === "worker")) {
    if (Date.now() > idleWaitDeadline)
      throw new Error(`${kind}: the worker process did not exit idle after ${WORKER_IDLE_EXIT_S} s; see ${appLog}`);
    await sleep(500);
  }
  const idleAfterWork = { ...(await sample()), idleSeconds: round((Date.now() - idleFrom) / 1000, 0) };
  const largeReview = gh.reviews.find((r) => r.pr === LARGE_PR);

  const stoppedCleanly = await app.stop();
  await bare.stop();
  agent.destroy();
  await gh.stop();
  await pg?.drop();

  const second = rounds[1]!.drained.appTreeMiB;
  const lastRound = rounds.at(-1)!.drained.appTreeMiB;
  return {
    database: kind,
    workerIdleExit: `${WORKER_IDLE_EXIT_S}s${SMOKE ? " (smoke; npm start's default is 60s)" : " (npm start's default)"}`,
    idle,
    idleAfterWork,
    rounds,
    largeReview: {
      ms: round(largeMs, 0),
      posted: largeReview !== undefined,
      inlineComments: largeReview?.comments ?? 0,
      peakMiB: largePeak,
      rightAfter: rightAfterLarge,
      after: afterLarge,
    },
    leak: { secondRoundMiB: second, lastRoundMiB: lastRound, growth: round(lastRound / second - 1, 3) },
    failedDeliveries: failures,
    unmatchedGitHubRequests: [...new Set(gh.unmatched)].slice(0, 10),
    stoppedCleanly,
    log: appLog,
  };
}

const only = process.env.BENCH_MEMORY_DATABASES?.split(",") as DatabaseKind[] | undefined;
const results = [];
for (const kind of only ?? (["embedded", "postgres"] as const)) results.push(await measure(kind));
emitResult({ section: "memory", config: cfg, databases: results });
process.exit(0);
