import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import nock from "nock";
import { Probot, ProbotOctokit } from "probot";
import { NoMistakesProbot } from "../../src/server/no-mistakes-probot.js";
import { createApp } from "../../src/app.js";
import { startWorkers } from "../../src/wiring/start-workers.js";
import { FakeAgent } from "../../src/agents/fake/fake.js";
import type { AgentSandbox } from "../../src/agents/sandbox/agent-sandbox.js";
import type { Agent, Role } from "../../src/agents/types.js";
import type { EnvConfig } from "../../src/config/env/env-config.js";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import type { DatabaseHandle } from "../../src/db/database.js";
import { openWebhookIntake } from "../../src/intake/open-webhook-intake.js";
import type { WebhookIntake } from "../../src/intake/webhook-intake.js";
import { RunQueue } from "../../src/queue/run-queue.js";
import { Refusals } from "../../src/refusals/refusals.js";
import { captureLogger } from "./capture-logger.js";
import { GitHubStandIn } from "./github-stand-in.js";

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

export interface AgentCall {
  role: string;
  sessionAsked: string | null;
  sessionReturned: string;
  resumed: boolean;
  turnsInSession: number;
  cwd: string;
  prompt: string;
}

export interface AppHarness {
  probot: Probot;
  queue: RunQueue;
  intake: WebhookIntake;
  config: EnvConfig;
  logs: ReturnType<typeof captureLogger>;
  /** Delivers a webhook as GitHub would (through Probot's verification-free receive). */
  receive(name: string, payload: Record<string, any>, id?: string): Promise<void>;
  /** Waits until every delivery is applied and the queue has nothing waiting or running. */
  idle(timeoutMs?: number): Promise<void>;
  /** Replaces the fake agent's scenario steps. */
  scenario(steps: unknown[]): void;
  agentCalls(): AgentCall[];
  stop(): Promise<void>;
}

let deliveries = 0;
let scenarios = 0;

/**
 * The real app (handlers, queue, worker, pipeline) on a real database, with the fake agent and
 * GitHub's HTTP API answered by a GitHubStandIn.
 */
export async function startAppHarness(options: {
  database: DatabaseHandle;
  dataDir: string;
  env?: Record<string, string>;
  /** A real adapter to use instead of the fake agent (then `scenario` and `agentCalls` do not apply). */
  agent?: Agent;
  /** Real adapters for some roles (the others run `agent`, or the fake agent). */
  agents?: Partial<Record<Role, Agent>>;
  /**
   * Where the repository's own commands run (setup, checks, reproducers): a real bubblewrap sandbox gives the
   * app its `checks`, as in production; the fake agent still runs in-process. Absent: nothing of the PR runs.
   */
  sandbox?: AgentSandbox;
}): Promise<AppHarness> {
  const scenarioPath = join(options.dataDir, "scenario.json");
  const agentLog = join(options.dataDir, "agent.log");
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(scenarioPath, JSON.stringify({ steps: [] }));
  const config = readEnvConfig({
    APP_ID: "1",
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: "test-webhook-secret",
    DATA_DIR: options.dataDir,
    AGENT: "fake",
    FAKE_AGENT_SCENARIO: scenarioPath,
    FAKE_AGENT_LOG: agentLog,
    WORKER_CONCURRENCY: "2",
    ...options.env,
  });
  // Only what production knows as secret: the installation token must be caught by its shape.
  const logs = captureLogger(config.secrets, "debug");
  const probot = new NoMistakesProbot({
    appId: 1,
    baseUrl: config.github.baseUrl,
    privateKey,
    secret: "test-webhook-secret",
    log: logs.log,
    // Probot sets its own throttle options; a function default runs last and turns it (and retries) off for tests.
    Octokit: ProbotOctokit.defaults((options: Record<string, unknown>) => ({
      ...options,
      throttle: { enabled: false },
      retry: { enabled: false },
    })),
  });
  const queue = await RunQueue.start({
    database: options.database,
    log: logs.log,
    expireInSeconds: 120,
    pollingIntervalSeconds: 0.5,
    retryDelaySeconds: 1,
  });
  let agent = new FakeAgent({ scenarioPath, home: join(options.dataDir, "fake-agent"), logPath: agentLog });
  const agentProxy = {
    name: "fake",
    supportsResume: true,
    get portable() {
      return agent.portable;
    },
    run: (o: Parameters<FakeAgent["run"]>[0]) => agent.run(o),
  };
  const refusals = new Refusals({ db: options.database.db, log: logs.log, secrets: config.secrets });
  const intake = openWebhookIntake({
    dataDir: options.dataDir,
    database: options.database,
    queue,
    log: logs.log,
    refusals,
  });
  await probot.load(createApp({ intake, log: logs.log }), { cwd: process.cwd(), addHandler: () => {} });
  await startWorkers(probot, {
    config,
    database: options.database,
    agents: {
      reviewer: options.agents?.reviewer ?? options.agent ?? agentProxy,
      fixer: options.agents?.fixer ?? options.agent ?? agentProxy,
      verifier: options.agents?.verifier ?? options.agent ?? agentProxy,
    },
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    queue,
    log: logs.log,
    refusals,
  });

  return {
    probot,
    queue,
    intake,
    config,
    logs,
    async receive(name, payload, id = `delivery-${++deliveries}`) {
      await probot.receive({ name, id, payload } as Parameters<Probot["receive"]>[0]);
    },
    async idle(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      await intake.settled();
      await sleep(50);
      while ((await queue.pending()) > 0) {
        if (Date.now() > deadline) throw new Error(`queue not idle after ${timeoutMs} ms\n${logs.text().slice(-3000)}`);
        await sleep(100);
      }
    },
    scenario(steps) {
      // a new file each time: the fake agent counts `times` per scenario file
      const path = join(options.dataDir, `scenario-${++scenarios}.json`);
      writeFileSync(path, JSON.stringify({ steps }));
      agent = new FakeAgent({ scenarioPath: path, home: join(options.dataDir, "fake-agent"), logPath: agentLog });
    },
    agentCalls() {
      try {
        return readFileSync(agentLog, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as AgentCall);
      } catch {
        return [];
      }
    },
    async stop() {
      await intake.stop();
      await queue.stop();
      await refusals.stop();
      nock.cleanAll();
    },
  };
}

export { GitHubStandIn };
