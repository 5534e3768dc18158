import { RunSessions, type PipelineDeps } from "../../src/pipeline/index.js";
import { join } from "node:path";
import pino from "pino";
import { Probot, ProbotOctokit } from "probot";
import { FakeAgent } from "../../src/agents/fake/fake.js";
import type { DatabaseHandle } from "../../src/db/database.js";
import { migrateDatabase } from "../../src/db/migrate-database.js";
import { openDatabase } from "../../src/db/open-database.js";
import { GitWorkspace } from "../../src/git/git-workspace.js";
import { OctokitGitHubClient } from "../../src/github/octokit-github-client.js";
import { createLogger } from "../../src/logging/create-logger.js";
import { Refusals } from "../../src/refusals/refusals.js";
import { WEBHOOK_SECRET, createDatabase, privateKey } from "./common.js";
import { GitHubHttpStandIn } from "./github-server.js";

export interface ReviewPipeline {
  db: Awaited<ReturnType<typeof createDatabase>>;
  handle: DatabaseHandle;
  gh: GitHubHttpStandIn;
  deps: PipelineDeps;
}

/**
 * The review pipeline as the worker wires it, for benches that call runReview directly: a fresh
 * PostgreSQL database, the HTTP GitHub stand-in, the real Octokit client, the fake agent logging its
 * calls to `agentLog`, and a log file under `root`.
 */
export async function startReviewPipeline(root: string, dataDir: string, agentLog: string): Promise<ReviewPipeline> {
  const db = await createDatabase();
  const handle = await openDatabase({ databaseUrl: db.url, maxConnections: 4 });
  await migrateDatabase(handle);
  const gh = new GitHubHttpStandIn();
  await gh.start();
  const log = createLogger({
    level: "info",
    destination: pino.destination({ dest: join(root, "app.log"), sync: false }),
  });
  const probot = new Probot({
    appId: 1,
    privateKey: privateKey(),
    secret: WEBHOOK_SECRET,
    baseUrl: gh.apiUrl,
    log,
    Octokit: ProbotOctokit,
  });
  const deps: PipelineDeps = {
    db: handle.db,
    sessions: new RunSessions({
      db: handle.db,
      agent: new FakeAgent({ home: join(dataDir, "fake-agent"), logPath: agentLog }),
      log,
    }),
    log,
    github: async (installationId) =>
      new OctokitGitHubClient(await probot.auth(installationId), async () => "no-mistakes", gh.host),
    workspace: (run) => new GitWorkspace(join(dataDir, "workspaces", String(run.repositoryId), String(run.prNumber))),
    agentTimeoutMs: 60_000,
    // The "remote" is a local bare repository: no token goes on git's command line (as for an untrusted URL).
    gitToken: () => undefined,
    isOwnBot: async () => false,
    refusals: new Refusals({ db: handle.db, log }),
  };
  return { db, handle, gh, deps };
}
