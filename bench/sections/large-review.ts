/**
 * 5. The app's event-loop delay while it reviews one large pull request (2,000 changed files, a
 * ~0.5 MB diff, the reviewer answering at once with 30 findings), on each database: the app process
 * (bench/servers/app-server.ts, as `npm start`) gets a signed `pull_request.opened` and reviews it;
 * the loop-delay window runs from the delivery to the completed check run. BENCH_PROFILE=1 writes a
 * CPU profile of the app into bench/results/profiles/large-review-<database>.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import { GitHubHttpStandIn } from "../lib/github-server.js";
import { takeLoopDelay } from "../lib/loop-delay.js";
import { postWebhook } from "../lib/post-webhook.js";
import { buildRepo } from "../lib/repo.js";
import {
  appEnv,
  createDatabase,
  emitResult,
  freePort,
  pullRequestPayload,
  ROOT,
  round,
  sleep,
  SMOKE,
  startChild,
  tempRoot,
} from "../lib/common.js";

const cfg = SMOKE ? { baseFiles: 80, files: 50, findings: 5 } : { baseFiles: 2500, files: 2000, findings: 30 };
const PROFILE = process.env.BENCH_PROFILE === "1";
const WARM_PR = 7;
const LARGE_PR = 2000;
type DatabaseKind = "embedded" | "postgres";

const root = tempRoot("large-review");
const repo = buildRepo(root, cfg.baseFiles, [
  { number: WARM_PR, changedFiles: 5, laterPushes: 0 },
  { number: LARGE_PR, changedFiles: cfg.files, laterPushes: 0 },
]);
const pathOf = (i: number) => `src/m${Math.floor(i / 100)}/file${i}.ts`;
const step = Math.max(1, Math.floor(cfg.files / cfg.findings));
const largeAnswer = {
  summary: "Several constants changed type.",
  findings: Array.from({ length: cfg.findings }, (_, j) => ({
    path: pathOf(j * step),
    line: [5, 20, 35][j % 3],
    severity: j % 5 === 0 ? "error" : "warning",
    action: "ask-user",
    title: `Constant ${j} became a string`,
    body: `v${j * step}_${[5, 20, 35][j % 3]} was a number and is compared as one elsewhere.`,
    ...(j % 4 === 0 ? { suggestion: `export const v${j * step}_${[5, 20, 35][j % 3]} = 0;` } : {}),
  })),
  resolved: [],
};
const scenario = join(root, "scenario.json");
writeFileSync(
  scenario,
  JSON.stringify({
    steps: [
      { role: "reviewer", match: `Change ${LARGE_PR}`, answer: largeAnswer },
      { role: "reviewer", answer: { summary: "Fine.", findings: [], resolved: [] } },
    ],
  }),
);

async function reviewed(gh: GitHubHttpStandIn, headSha: string, what: string, logPath: string): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (![...gh.checkRuns.values()].some((c) => c.head_sha === headSha && c.status === "completed")) {
    if (Date.now() > deadline) throw new Error(`${what}: no completed check run within 300 s; see ${logPath}`);
    await sleep(20);
  }
}

async function measure(kind: DatabaseKind, workers: "process" | "inline") {
  const pg = kind === "postgres" ? await createDatabase() : undefined;
  const gh = new GitHubHttpStandIn();
  await gh.start();
  const loopFile = join(root, `loop-delay-${kind}-${workers}.jsonl`);
  const app = await startChild(
    "bench/servers/app-server.ts",
    {
      ...appEnv(gh.host),
      PORT: String(await freePort()),
      ...(pg ? { DATABASE_URL: pg.url } : {}),
      DATA_DIR: join(root, `app-data-${kind}-${workers}`),
      FAKE_AGENT_SCENARIO: scenario,
      STOP_GRACE: "60s",
      BENCH_LOOP_DELAY_FILE: loopFile,
      WORKERS: workers,
    },
    join(root, `app-${kind}-${workers}.log`),
    PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${join(ROOT, "bench/results/profiles", `large-review-${kind}`)}`] : [],
  );
  const agent = new Agent({ keepAlive: true });
  const open = (pr: number) => {
    const head = repo.heads.get(pr)![0]!;
    const body = JSON.stringify(
      pullRequestPayload({ action: "opened", number: pr, baseSha: repo.baseSha, headSha: head, cloneUrl: repo.bare }),
    );
    return { head, send: () => postWebhook(app.port, agent, "pull_request", randomUUID(), body) };
  };
  // Warm-up (not measured): a small PR reviewed end to end.
  const warm = open(WARM_PR);
  if ((await warm.send()) !== 200) throw new Error(`${kind}: the warm-up delivery was refused; see ${app.logPath}`);
  await reviewed(gh, warm.head, `${kind} warm-up`, app.logPath);
  await sleep(500);

  const large = open(LARGE_PR);
  await takeLoopDelay(app.child, loopFile); // the window from here on is the large review's
  const t = performance.now();
  const status = await large.send();
  await reviewed(gh, large.head, `${kind} large review`, app.logPath);
  const reviewMs = performance.now() - t;
  const loop = await takeLoopDelay(app.child, loopFile);
  const review = gh.reviews.find((r) => r.pr === LARGE_PR);
  const stoppedCleanly = await app.kill(120_000);
  agent.destroy();
  await gh.stop();
  await pg?.drop();
  return {
    database: kind,
    workers,
    deliveryStatus: status,
    reviewMs: round(reviewMs, 0),
    inlineComments: review?.comments ?? 0,
    reviewPosted: review !== undefined,
    loopDelay: loop,
    unmatchedGitHubRequests: [...new Set(gh.unmatched)].slice(0, 10),
    stoppedCleanly,
    log: app.logPath,
  };
}

const results = [];
// The default (workers in their own process: the loop measured is the one that answers webhooks), then the
// workers in the app's own process (WORKERS=inline: the review's own work on that loop).
for (const kind of ["embedded", "postgres"] as const)
  for (const workers of ["process", "inline"] as const) results.push(await measure(kind, workers));
emitResult({ section: "large-review", config: cfg, databases: results });
process.exit(0);
