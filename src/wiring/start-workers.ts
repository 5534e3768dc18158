import { answerCommand, processRun } from "../pipeline/index.js";
import type { Probot } from "probot";
import { OctokitGitHubClient } from "../github/octokit-github-client.js";
import { createPipelineDeps } from "./create-pipeline-deps.js";
import type { WorkerDeps } from "./worker-deps.js";

/** Starts this process's workers: run jobs (agent turns, one per run at a time) and command replies. */
export async function startWorkers(app: Probot, deps: WorkerDeps): Promise<void> {
  const appSlug = appSlugOf(app);
  const github = async (installationId: number) =>
    new OctokitGitHubClient(await app.auth(installationId), appSlug, deps.config.github.host);
  const reviewDeps = createPipelineDeps(deps, github, appSlug);
  await deps.queue.work(deps.config.workerConcurrency, (job, signal, attempt) =>
    processRun(reviewDeps, job, signal, attempt),
  );
  await deps.queue.workCommands(2, (job, attempt) =>
    answerCommand(
      {
        db: deps.database.db,
        log: deps.log,
        refusals: deps.refusals,
        github,
        enqueueRun: (runJob) => deps.queue.enqueue(runJob),
      },
      job,
      attempt,
    ),
  );
}

/** The App's slug (its bot is `<slug>[bot]`), asked of GitHub once; asked again after a failure. */
function appSlugOf(app: Probot): () => Promise<string> {
  let slug: Promise<string> | undefined;
  return (): Promise<string> => {
    slug ??= app
      .auth()
      .then((octokit) => octokit.rest.apps.getAuthenticated())
      .then(({ data }) => data?.slug ?? "no-mistakes")
      .catch((error: unknown) => {
        slug = undefined;
        throw error;
      });
    return slug;
  };
}
