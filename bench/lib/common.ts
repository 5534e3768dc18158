import { pullRequestPayload as testPullRequestPayload } from "../../test/helpers/webhook-payloads.js";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { APP_NODE_OPTIONS } from "../../src/system/app-node-options.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const ADMIN_URL =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
export const WEBHOOK_SECRET = "bench-webhook-secret";
export const SMOKE = process.argv.includes("--smoke");

/** What each section prints as its last stdout line, for bench/run.ts. */
export const RESULT_PREFIX = "BENCH_RESULT ";
export function emitResult(result: unknown): void {
  process.stdout.write(`\n${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

export function tempRoot(name: string): string {
  return mkdtempSync(join(tmpdir(), `nm-bench-${name}-`));
}

let key: string | undefined;
export function privateKey(): string {
  key ??= generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  return key;
}

export { freePort } from "../../test/helpers/free-port.js";

/** A fresh PostgreSQL database (dropped by `drop`). */
export async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `nm_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}

export function signature(body: string): string {
  return `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}`;
}

export const OWNER = "octo-org";
export const REPO = "widgets";
export const REPO_ID = 4242;
export const INSTALLATION_ID = 99;

/** The real `pull_request.<action>` example payload from @octokit/webhooks-examples, pointed at our PR. */
export function pullRequestPayload(shape: {
  action: string;
  number: number;
  baseSha: string;
  headSha: string;
  cloneUrl: string;
  before?: string;
  updatedAt?: string;
}): Record<string, any> {
  return testPullRequestPayload({
    ...shape,
    title: `Change ${shape.number}`,
    headRef: `pr-${shape.number}`,
    repoId: REPO_ID,
    fullName: `${OWNER}/${REPO}`,
    installationId: INSTALLATION_ID,
  });
}

export function git(cwd: string, args: string[], input?: string | Buffer): string {
  return execFileSync("git", args, {
    cwd,
    input,
    encoding: "utf8",
    maxBuffer: 1 << 30,
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" },
  });
}

export interface ChildServer {
  child: ChildProcess;
  port: number;
  logPath: string;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 s); resolves true when it exited by itself. */
  kill(graceMs?: number): Promise<boolean>;
}

/** Starts `node --import tsx <script>` with `env`; resolves when it prints `LISTENING <port>`. */
/** The environment every bench app starts with: registered, the fake agent, GitHub at the local stand-in. */
export function appEnv(githubHost: string): Record<string, string> {
  return {
    APP_ID: "1",
    PRIVATE_KEY: privateKey(),
    WEBHOOK_SECRET,
    AGENT: "fake",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    GHE_HOST: githubHost,
    GHE_PROTOCOL: "http",
  };
}

/** Servers a section started: killed when the section's process exits, even on a crash, so none outlive it. */
const started = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

export async function startChild(
  script: string,
  env: Record<string, string>,
  logPath: string,
  extraNodeArgs: string[] = [],
): Promise<ChildServer> {
  const log = openSync(logPath, "a");
  // The app gets GitHub's write pacing off through a preload, which the processes it forks with its own
  // Node options (ROLE=all's worker process) load too; after tsx's loader, which loads it.
  // The app also gets the Node options its every start passes (npm start, the image): see APP_NODE_OPTIONS.
  const appArgs = script.endsWith("app-server.ts")
    ? ["--import", join(ROOT, "bench/servers/pacing-off.ts"), ...APP_NODE_OPTIONS]
    : [];
  const child = spawn(process.execPath, ["--import", "tsx", ...appArgs, ...extraNodeArgs, join(ROOT, script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", log, "pipe"],
  });
  started.add(child);
  child.once("exit", () => started.delete(child));
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start within 120 s:\n${stderr}`)), 120_000);
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = /LISTENING (\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${stderr}`));
    });
  });
  return {
    child,
    port,
    logPath,
    async kill(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode === 0;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      let forced = false;
      const t = setTimeout(() => {
        forced = true;
        child.kill("SIGKILL");
      }, graceMs);
      await exited;
      clearTimeout(t);
      return !forced && child.exitCode === 0;
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export { sleep };

export const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;
