import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { expect } from "vitest";
import { descendants } from "./descendants.js";
import { FlowFixture, numbered, REPO_ID } from "./flow-fixture.js";
import { startGitHubHttpRelay, type GitHubHttpRelay } from "./github-http-relay.js";
import { signedWebhookTarget } from "./signed-delivery.js";
import { listeningPort, startAppProcess, type AppProcess } from "./start-app-process.js";
import { createPostgresDatabase } from "./test-database.js";

export const WEBHOOK_SECRET = "service-lifecycle-webhook-secret";

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

/** An app process that said it is listening. */
export interface StartedApp extends AppProcess {
  name: string;
  port: number;
  pid: number;
  dataDir: string;
  /** When it was spawned (Date.now()). */
  spawnedAt: number;
  webhookUrl: string;
  url(path: string): string;
}

export interface AppStart {
  /** Names the process in failures and its DATA_DIR (two starts with one name share it). */
  name: string;
  /** The fake agent's steps: a scenario file of this start's own (the agent counts `times` per file). */
  steps?: unknown[];
  env?: Record<string, string>;
  /** `npm`: started by `npm start` in a process group of its own (see startAppProcess). */
  launcher?: "npm";
}

let worlds = 0;
let scenarios = 0;

/** Polls until `check` returns something other than undefined/false; throws with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * One pull request's world for app processes: a fresh PostgreSQL database, the GitHub stand-in (nock, in
 * this process) behind a real HTTP relay the processes reach as GitHub Enterprise over http, and the
 * processes started in it. Webhooks go to a process as GitHub sends them: signed, over HTTP.
 */
export class ProcessWorld {
  readonly apps: StartedApp[] = [];

  private constructor(
    readonly fixture: FlowFixture,
    readonly relay: GitHubHttpRelay,
    readonly databaseUrl: string,
    readonly sql: postgres.Sql,
    private readonly dropDatabase: () => Promise<void>,
  ) {}

  static async create(): Promise<ProcessWorld> {
    // A host of its own per world: the stand-ins of worlds side by side never answer each other's requests.
    const origin = `http://github-${++worlds}.relay.test`;
    const fixture = FlowFixture.withoutApp({ apiUrl: `${origin}/api/v3` });
    const relay = await startGitHubHttpRelay(origin);
    const { url, drop } = await createPostgresDatabase();
    const sql = postgres(url, { max: 2, onnotice: () => {} });
    return new ProcessWorld(fixture, relay, url, sql, drop);
  }

  get github() {
    return this.fixture.github;
  }

  /** Where GitHub sends webhooks from now on (a redelivery goes there too). */
  sendWebhooksTo(app: StartedApp): void {
    this.github.webhookTarget = signedWebhookTarget(() => app.webhookUrl, WEBHOOK_SECRET);
  }

  /** A fake agent scenario file of its own (the agent counts a step's `times` per file and agent home). */
  writeScenario(steps: unknown[]): string {
    const path = join(this.fixture.root, `scenario-${++scenarios}.json`);
    writeFileSync(path, JSON.stringify({ steps }));
    return path;
  }

  /** Starts an app process against this world and waits until it listens. */
  async start(options: AppStart): Promise<StartedApp> {
    const dataDir = join(this.fixture.root, `data-${options.name}`);
    mkdirSync(dataDir, { recursive: true });
    const scenario = this.writeScenario(options.steps ?? []);
    const spawnedAt = Date.now();
    const app = startAppProcess(
      {
        APP_ID: "1",
        PRIVATE_KEY: privateKey,
        WEBHOOK_SECRET,
        DATABASE_URL: this.databaseUrl,
        DATA_DIR: dataDir,
        HOST: "127.0.0.1",
        PORT: "0",
        AGENT: "fake",
        FAKE_AGENT_SCENARIO: scenario,
        GHE_HOST: this.relay.host,
        GHE_PROTOCOL: "http",
        REDELIVER_INTERVAL: "off",
        ...options.env,
      },
      { launcher: options.launcher },
    );
    const started = Object.assign(app, {
      name: options.name,
      pid: app.child.pid!,
      dataDir,
      spawnedAt,
      port: 0,
      webhookUrl: "",
      url: (path: string) => path,
    });
    this.apps.push(started);
    started.port = await listeningPort(app);
    started.url = (path: string) => `http://127.0.0.1:${started.port}${path}`;
    started.webhookUrl = started.url("/api/github/webhooks");
    return started;
  }

  /**
   * Sends SIGKILL to the app and to every process it started (its worker process, the embedded database, git)
   * at once, as a container kill or a machine losing power does, and waits for the app to be gone (and reaped).
   */
  async kill(app: StartedApp): Promise<void> {
    if (app.child.exitCode !== null || app.child.signalCode !== null) return;
    const exited = new Promise((resolve) => app.child.once("exit", resolve));
    const tree = descendants(app.child.pid!);
    app.child.kill("SIGKILL");
    for (const pid of tree) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await exited;
  }

  /** Sends SIGKILL to the app's own process only (its children see it go) and waits for it to be reaped. */
  async killAppOnly(app: StartedApp): Promise<void> {
    if (app.child.exitCode !== null || app.child.signalCode !== null) return;
    const exited = new Promise((resolve) => app.child.once("exit", resolve));
    app.child.kill("SIGKILL");
    await exited;
  }

  /** The run row of the fixture's PR. */
  async runId(pr = this.fixture.pr): Promise<number | undefined> {
    const [row] = await this.sql<
      { id: number }[]
    >`select id from runs where repository_id = ${REPO_ID} and pr_number = ${pr}`;
    return row?.id;
  }

  async turns(
    runId: number,
  ): Promise<{ id: number; role: string; status: string; head_sha: string; error: string | null }[]> {
    return this.sql`select id, role, status, head_sha, error from turns where run_id = ${runId} order by id`;
  }

  async jobs(runId: number): Promise<{ id: string; state: string; retry_count: number }[]> {
    return this
      .sql`select id, state, retry_count from pgboss.job where name = 'no-mistakes-run' and data->>'runId' = ${String(runId)} order by created_on`;
  }

  /** The bot's reviews of `sha` as GitHub stores them. */
  reviewsOf(sha: string) {
    return this.github.reviews.filter((r) => r.commit_id === sha && r.user.type === "Bot");
  }

  /** Every process's output, for a failure message. */
  output(): string {
    return this.apps.map((a) => `----- ${a.name} (pid ${a.pid}) -----\n${a.output().slice(-6000)}`).join("\n");
  }

  async close(): Promise<void> {
    await Promise.all(this.apps.map((a) => this.kill(a)));
    await this.relay.close();
    await this.sql.end({ timeout: 1 });
    await this.dropDatabase();
  }
}

/** The reviewer's answer in app-process tests: one warning on the changed loop line. */
export const ONE_FINDING = {
  summary: "One problem in the loop.",
  findings: [
    {
      path: "src/app.ts",
      line: 11,
      severity: "warning",
      action: "auto-fix",
      title: "Off-by-one in loop bound",
      body: "`<=` reads past the end.",
      suggestion: "for (i = 0; i < n; i++)",
    },
  ],
  resolved: [],
};

/** Pushes the PR's next commit and has GitHub deliver `opened` (first push) or `synchronize`; returns the head. */
export async function pushAndDeliver(w: ProcessWorld, line: string, previous?: string): Promise<string> {
  const head = w.fixture.push({ "src/app.ts": numbered("app", 30, { 11: line }) }, line);
  const attempt = await w.github.deliver(
    "pull_request",
    previous ? w.fixture.prPayload("synchronize", head, { before: previous }) : w.fixture.prPayload("opened", head),
  );
  expect(attempt.status_code, attempt.status).toBe(200);
  return head;
}

/** When the stand-in received the review of `sha` (POST …/reviews with an event, i.e. not a pending probe). */
export function reviewPostedAt(w: ProcessWorld, sha: string): number | undefined {
  return w.github
    .sent("POST", /\/pulls\/\d+\/reviews$/)
    .find((r) => r.body?.commit_id === sha && r.body?.event !== undefined)?.at;
}
