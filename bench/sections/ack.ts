/**
 * 1. Webhook ack latency while the workers review, on both databases a user can run: the embedded one
 * (no DATABASE_URL: DATA_DIR/pglite, as `npm start`) and PostgreSQL, one after the other. For each: the
 * app (startServer, two workers, the fake agent answering at once with findings) and a bare Probot
 * app get open-loop signed `pull_request.synchronize` deliveries in paired rounds (both servers at once,
 * their deliveries interleaved; a quiet round after each: see paired-rounds.ts); each delivery
 * names the PR's next real commit (refs/pull/<n>/head moved before it), so the workers fetch, diff,
 * review and post all through the measurement. Measured too: each server's own CPU time per delivery
 * (/proc utime+stime of the process, not of its git children) and the app's event-loop delay. Then the
 * app is stopped gracefully, the database opened as the app opens it, and checked: every delivery
 * recorded once, every run at its newest head, reviewed or with a job that will review it.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open-database.js";
import { planRounds, runRounds, type Round, type Target } from "../lib/paired-rounds.js";
import { checkDeliveries, deliveryProblems, type SentDeliveries } from "../lib/delivery-checks.js";
import { GitHubHttpStandIn } from "../lib/github-server.js";
import { takeLoopDelay, type LoopDelayWindow } from "../lib/loop-delay.js";
import { postWebhook } from "../lib/post-webhook.js";
import { processCpuMs, processTreeCpuMs } from "../lib/process-cpu.js";
import { buildRepo, PullHeadMover } from "../lib/repo.js";
import {
  appEnv,
  createDatabase,
  emitResult,
  freePort,
  percentile,
  pullRequestPayload,
  ROOT,
  round,
  sleep,
  SMOKE,
  startChild,
  tempRoot,
} from "../lib/common.js";
import { REVIEWER_ANSWER } from "../lib/reviewer-answer.js";

const cfg = SMOKE
  ? { rate: 20, seconds: 2, warmSeconds: 0.5, prs: 5, blockMs: 500, commitsPerPr: 6 }
  : {
      rate: 100,
      seconds: Number(process.env.BENCH_ACK_SECONDS ?? 60),
      warmSeconds: 3,
      prs: 50,
      blockMs: 1000,
      commitsPerPr: 40,
    };
const PROFILE = process.env.BENCH_PROFILE === "1";
/**
 * Calibration (BENCH_ACK_AA=1): a second bare app in the app's place, nothing else changed, so the p99
 * ratio shows the bench's own noise (two runs on the 2-core machine: 1.00×, 1.04×). No database check.
 */
const AA = process.env.BENCH_ACK_AA === "1";
/** Extra Node options for the app's processes only (GC experiments: `--trace-gc-nvp`, `--min-semi-space-size=16`). */
const APP_NODE_ARGS = process.env.BENCH_APP_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
type DatabaseKind = "embedded" | "postgres";

// One folder per server and Node's own file names: tsx's loader thread writes a profile too, and a fixed name let it overwrite the main thread's.
const profArgs = (name: string) => [
  ...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${join(ROOT, "bench/results/profiles", name)}`] : []),
  ...(process.env.BENCH_TRACE_GC === "1" ? ["--trace-gc"] : []),
];
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const summary = (s: number[]) => ({
  p50: round(percentile(s, 50)),
  p90: round(percentile(s, 90)),
  p99: round(percentile(s, 99)),
  max: round(s.at(-1) ?? NaN),
});

async function measure(kind: DatabaseKind) {
  const root = tempRoot(`ack-${kind}`);
  const pg = kind === "postgres" ? await createDatabase() : undefined;
  const gh = new GitHubHttpStandIn();
  await gh.start();
  const repo = buildRepo(
    root,
    5,
    Array.from({ length: cfg.prs }, (_, i) => ({ number: i + 1, changedFiles: 1, laterPushes: cfg.commitsPerPr - 1 })),
  );
  const scenario = join(root, "scenario.json");
  writeFileSync(scenario, JSON.stringify({ steps: [{ role: "reviewer", answer: REVIEWER_ANSWER }] }));
  const dataDir = join(root, "app-data");
  const loopFile = join(root, "loop-delay.jsonl");
  const bareLoopFile = join(root, "bare-loop-delay.jsonl");
  const common = appEnv(gh.host);
  const app = await startChild(
    AA ? "bench/servers/bare-server.ts" : "bench/servers/app-server.ts",
    {
      ...common,
      PORT: String(await freePort()),
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      DATA_DIR: dataDir,
      FAKE_AGENT_SCENARIO: scenario,
      STOP_GRACE: "60s",
      BENCH_LOOP_DELAY_FILE: loopFile,
    },
    join(root, "app.log"),
    [...profArgs(`ack-app-${kind}`), ...APP_NODE_ARGS],
  );
  const bare = await startChild(
    "bench/servers/bare-server.ts",
    { ...common, PORT: String(await freePort()), BENCH_LOOP_DELAY_FILE: bareLoopFile },
    join(root, "bare.log"),
    profArgs(`ack-bare-${kind}`),
  );
  const pids: Record<Target, number> = { app: app.child.pid!, bare: bare.child.pid! };
  const ports: Record<Target, number> = { app: app.port, bare: bare.port };

  // An idle connection is closed by the driver after 4 s, before the servers' keep-alive timeout (Node's
  // 5 s) closes it from their side: else a delivery sent on a connection the server is closing at that
  // moment fails with ECONNRESET (seen about once in 6,000 deliveries, on whichever server) — a race of
  // the bench's connection reuse, which GitHub's deliveries do not run into.
  const agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: 4_000 });
  const lat: Record<Target, number[]> = { app: [], bare: [] };
  /** [scheduled ms since start, latency ms] of every measured request, to see when the slow ones happen. */
  const samples: Record<Target, [number, number][]> = { app: [], bare: [] };
  const non2xx: Record<Target, number> = { app: 0, bare: 0 };
  const errors: Record<Target, number> = { app: 0, bare: 0 };
  /** Why the failed requests failed (the error's code, else its message), with how many of each. */
  const errorReasons: Record<Target, Record<string, number>> = { app: {}, bare: {} };
  const sentCount: Record<Target, number> = { app: 0, bare: 0 };
  const sent: SentDeliveries = { ids: [], failed: new Set(), lastHead: new Map(), answeredAt: new Map() };
  /** Per PR, the newest step the app has answered 2xx (deliveries can be answered out of order). */
  const answeredStep = new Map<number, number>();
  let appK = 0;
  let bareK = 0;

  /** The k-th delivery to the app: PR (k mod prs)+1, at that PR's next commit (wrapping around). */
  const appDelivery = (k: number) => {
    const pr = (k % cfg.prs) + 1;
    const chain = repo.heads.get(pr)!;
    const step = Math.floor(k / cfg.prs);
    // GitHub moves pull_request.updated_at with every push: the app keeps the newest head when deliveries arrive out of order.
    const updatedAt = new Date(Date.UTC(2026, 0, 1) + step * 1000).toISOString().replace(/\.\d+Z$/, "Z");
    return {
      pr,
      step,
      head: chain[step % chain.length]!,
      before: step === 0 ? repo.baseSha : chain[(step - 1) % chain.length]!,
      updatedAt,
    };
  };

  async function send(target: Target, scheduledAt: number, measured: boolean): Promise<void> {
    // The bare app gets the same deliveries' shape (its own sequence); it does nothing with them.
    const d = appDelivery(target === "app" ? appK++ : bareK++);
    const id = randomUUID();
    const body = JSON.stringify(
      pullRequestPayload({
        action: "synchronize",
        number: d.pr,
        baseSha: repo.baseSha,
        headSha: d.head,
        before: d.before,
        updatedAt: d.updatedAt,
        cloneUrl: repo.bare,
      }),
    );
    sentCount[target]++;
    const status = await postWebhook(ports[target], agent, "pull_request", id, body, (error) => {
      const reason = error.code ?? error.message;
      errorReasons[target][reason] = (errorReasons[target][reason] ?? 0) + 1;
    });
    const ms = performance.now() - scheduledAt; // from the scheduled time: no coordinated omission
    if (target === "app" && status >= 200 && status < 300) {
      sent.ids.push(id);
      sent.answeredAt.set(id, Date.now());
      if ((answeredStep.get(d.pr) ?? -1) < d.step) {
        answeredStep.set(d.pr, d.step);
        sent.lastHead.set(d.pr, d.head);
      }
    } else if (target === "app" && status === 0) sent.failed.add(id);
    if (status === 0) errors[target]++;
    else if (status < 200 || status >= 300) non2xx[target]++;
    if (measured) {
      lat[target].push(ms);
      samples[target].push([Math.round(scheduledAt), Math.round(ms * 100) / 100]);
    }
  }

  // Warm-up: the first deliveries of two PRs, not measured, until their reviews are posted (the
  // workers are then warm: token, workspaces, JIT).
  await Promise.all([send("app", performance.now(), false), send("app", performance.now(), false)]);
  const warmDeadline = Date.now() + 120_000;
  while (!AA && gh.reviews.length < 2) {
    if (Date.now() > warmDeadline)
      throw new Error(`${kind}: no review posted within 120 s of the warm-up deliveries; see ${app.logPath}`);
    await sleep(100);
  }

  const rounds = planRounds(cfg);
  // Which app deliveries each load round sends, to move every PR's head before the round names it.
  const firstK = new Map<number, number>();
  let k = appK;
  for (const r of rounds)
    if (r.load) {
      firstK.set(r.index, k);
      k += r.deliveries;
    }
  const headsFor = (r: Round): [number, string][] => {
    const newest = new Map<number, string>();
    for (let j = firstK.get(r.index)!; j < firstK.get(r.index)! + r.deliveries; j++) {
      const d = appDelivery(j);
      newest.set(d.pr, d.head);
    }
    return [...newest];
  };
  const moves: Promise<void>[] = [];
  const mover = new PullHeadMover(repo.bare);
  await mover.move(headsFor(rounds.find((r) => r.load)!));

  // CPU time of each server's process over each round (from its start to the next round's start).
  const cpu = {
    appInLoadRounds: 0,
    appInQuietRounds: 0,
    bareInLoadRounds: 0,
    bareInQuietRounds: 0,
    wholeAppInLoadRounds: 0,
  };
  let last: { round: Round; app: number; bare: number; wholeApp: number } | undefined;
  let measuredFrom = NaN;
  let measuredTo = NaN;
  const { maxSchedulerLagMs } = await runRounds(
    rounds,
    cfg,
    (target, round, at) => send(target, at, round.measured),
    (round) => {
      const now = {
        app: processCpuMs(pids.app),
        bare: processCpuMs(pids.bare),
        wholeApp: processTreeCpuMs(pids.app),
      };
      if (last?.round.measured) {
        const da = now.app - last.app;
        const db = now.bare - last.bare;
        if (last.round.load) {
          cpu.appInLoadRounds += da;
          cpu.bareInLoadRounds += db;
          cpu.wholeAppInLoadRounds += now.wholeApp - last.wholeApp;
        } else {
          cpu.appInQuietRounds += da;
          cpu.bareInQuietRounds += db;
        }
      }
      if (round?.measured && Number.isNaN(measuredFrom)) {
        measuredFrom = performance.now();
        app.child.kill("SIGUSR2"); // closes the warm-up's loop-delay window: the next one is the load's
        bare.child.kill("SIGUSR2");
      }
      if (!round) measuredTo = performance.now();
      if (round) {
        last = { round, ...now };
        // The next round's heads, if it is a load round, are pushed now (a transaction of the one git
        // process the mover keeps: no fork of this process while it sends; not waited for).
        const next = rounds[round.index + 1];
        if (next?.load) moves.push(mover.move(headsFor(next)));
      }
    },
  );
  const loopDuringLoad = await takeLoopDelay(app.child, loopFile);
  const bareLoopDuringLoad = await takeLoopDelay(bare.child, bareLoopFile);
  await Promise.all(moves);
  await mover.close();
  const reviewsDuringLoad = gh.reviews.filter((r) => r.at >= measuredFrom && r.at <= measuredTo).length;
  const measuredDeliveries = { app: lat.app.length, bare: lat.bare.length };

  // The app's own word that everything it answered is applied, then a graceful stop (running turns finish).
  const applyDeadline = Date.now() + 60_000;
  let intakeBacklog = NaN;
  while (!AA && Date.now() < applyDeadline) {
    const health = (await (await fetch(`http://127.0.0.1:${app.port}/health`)).json()) as {
      intake?: { backlog: number };
    };
    intakeBacklog = health.intake?.backlog ?? NaN;
    if (intakeBacklog === 0) break;
    await sleep(200);
  }
  await sleep(500); // any write that should not happen (a duplicate) gets its chance to show
  const stoppedCleanly = await app.kill(120_000);
  await bare.kill();
  const reviewsPosted = gh.reviews.length;

  // The database as the app opens it: DATA_DIR/pglite (the app has stopped: PGlite has one user at a time) or PostgreSQL.
  const checkDatabase = async () => {
    const handle = await openDatabase(
      pg ? { databaseUrl: pg.url, maxConnections: 2 } : { pgliteDir: join(dataDir, "pglite") },
    );
    const found = await checkDeliveries((text, params) => handle.executeSql(text, params), sent, app.logPath);
    await handle.close();
    return found;
  };
  const checks = AA ? undefined : await checkDatabase();
  await gh.stop();
  await pg?.drop();
  agent.destroy();

  // How many of each server's 40 slowest answers overlap one of its own garbage-collection pauses (≥ 1 ms).
  const slowest = Object.fromEntries(
    (["app", "bare"] as const).map((t) => [t, [...samples[t]].sort((a, b) => b[1] - a[1]).slice(0, 40)]),
  ) as Record<Target, [number, number][]>;
  const duringGc = (t: Target, window: LoopDelayWindow) =>
    slowest[t].filter(([at, ms]) => {
      const from = performance.timeOrigin + at;
      return window.gc.pauses.some(([start, pause]) => start <= from + ms && start + pause >= from);
    }).length;
  const withoutPauses = ({ gc: { pauses, ...gc }, ...window }: LoopDelayWindow) => ({
    ...window,
    gc: { ...gc, pausesOver1ms: pauses.length },
  });

  // Every measured answer of both servers ([scheduled ms, latency ms]), beside the logs, for a closer look.
  writeFileSync(join(root, "samples.json"), JSON.stringify(samples));

  const appS = sorted(lat.app);
  const bareS = sorted(lat.bare);
  /** One server's answers: how many were sent and measured, their latency, and the failures with their reasons. */
  const answers = (t: Target, latencies: number[]) => ({
    sent: sentCount[t],
    measured: latencies.length,
    ...summary(latencies),
    non2xx: non2xx[t],
    errors: errors[t],
    errorReasons: errorReasons[t],
  });
  const perDelivery = {
    app: cpu.appInLoadRounds / measuredDeliveries.app,
    bare: cpu.bareInLoadRounds / measuredDeliveries.bare,
  };
  const { applyLagMs = [], ...db } = checks ?? {};
  return {
    database: kind,
    app: answers("app", appS),
    bare: answers("bare", bareS),
    p99Ratio: round(percentile(appS, 99) / percentile(bareS, 99), 3),
    cpu: {
      ms: {
        appInLoadRounds: round(cpu.appInLoadRounds, 0),
        appInQuietRounds: round(cpu.appInQuietRounds, 0),
        bareInLoadRounds: round(cpu.bareInLoadRounds, 0),
        bareInQuietRounds: round(cpu.bareInQuietRounds, 0),
      },
      perDeliveryMs: { app: round(perDelivery.app, 3), bare: round(perDelivery.bare, 3) },
      ratio: round(perDelivery.app / perDelivery.bare, 2),
      /** The app's CPU in the load rounds minus in the quiet ones (workers reviewing in both): what the deliveries themselves cost. */
      marginalPerDeliveryMs: round((cpu.appInLoadRounds - cpu.appInQuietRounds) / measuredDeliveries.app, 3),
      /** Everything the app ran in the load rounds (its process, the worker process, the database, git), per delivery. */
      wholeAppPerDeliveryMs: round(cpu.wholeAppInLoadRounds / measuredDeliveries.app, 3),
    },
    loopDelayDuringLoad: withoutPauses(loopDuringLoad),
    /** The bare app's, with the same monitor: what a process answering these deliveries and nothing else sees. */
    bareLoopDelayDuringLoad: withoutPauses(bareLoopDuringLoad),
    /** Of each server's 40 slowest answers, how many overlap a garbage-collection pause of its own (≥ 1 ms). */
    slowestDuringGc: { app: duringGc("app", loopDuringLoad), bare: duringGc("bare", bareLoopDuringLoad) },
    reviewsDuringLoad,
    reviewsPosted,
    unmatchedGitHubRequests: gh.unmatched.length,
    unmatchedSample: [...new Set(gh.unmatched)].slice(0, 10),
    maxSchedulerLagMs: round(maxSchedulerLagMs),
    applyLagMs: {
      p50: round(percentile(applyLagMs, 50)),
      p99: round(percentile(applyLagMs, 99)),
      max: round(applyLagMs.at(-1) ?? NaN),
    },
    intakeBacklog,
    stoppedCleanly,
    problems: checks ? deliveryProblems(checks) : null,
    db,
    logs: { app: app.logPath, bare: bare.logPath },
    /** Add to a `slowest` time to get the wall clock (ms since the epoch), to line it up with the servers' logs. */
    timeOrigin: Math.round(performance.timeOrigin),
    slowest,
  };
}

const only = process.env.BENCH_ACK_DATABASES?.split(",") as DatabaseKind[] | undefined;
const results = [];
for (const kind of only ?? (["embedded", "postgres"] as const)) results.push(await measure(kind));
emitResult({ section: "ack", config: cfg, databases: results });
process.exit(0);
