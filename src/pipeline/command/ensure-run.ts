import type { Database } from "../../db/database.js";
import { findRun, upsertRun } from "../../db/runs.js";
import type { Run } from "../../db/schema.js";
import type { CommandJob } from "../../domain/command-job.js";
import { runFields } from "../../domain/pull-request.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";

/** The PR's run; created from the PR itself when the app never saw it opened (installed later). */
export async function ensureRun(db: Database, github: GitHubClient, ref: RepoRef, job: CommandJob): Promise<Run> {
  const existing = await findRun(db, job.repositoryId, job.prNumber);
  if (existing) return existing;
  const pr = await github.getPullRequest(ref, job.prNumber);
  const fields = runFields(job, pr);
  return upsertRun(db, { ...fields, prUpdatedAt: fields.prUpdatedAt === null ? null : new Date(fields.prUpdatedAt) });
}
