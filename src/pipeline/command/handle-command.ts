import { readRepoConfig } from "../job/read-repo-config.js";
import { repoRef } from "../job/repo-ref.js";
import type { Database } from "../../db/database.js";
import { listFindings, updateFinding } from "../../db/findings.js";
import { deleteRunAgentSession, listRunAgentSessions } from "../../db/run-agent-sessions.js";
import { addRunCommand } from "../../db/run-commands.js";
import { findRun, updateRun, upsertRun } from "../../db/runs.js";
import type { Run } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { findingId } from "../../domain/finding-id.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import { refreshVerdict } from "../publish/refresh-verdict.js";
import type { CommandJob } from "../../domain/command-job.js";
import type { CommandDeps } from "./command-deps.js";
import { handleLearnCommand } from "./handle-learn-command.js";
import { handleConfigCommand } from "./handle-config-command.js";
import { handleThreadReply } from "./handle-thread-reply.js";
import { helpText } from "./help-text.js";
import { renderStatus } from "./render-status.js";
import { readRepositoryOutcomeRates } from "../../db/repository-outcome-rates.js";
import { scorecardSince } from "../../domain/scorecard-period.js";
import { standing, WRITERS } from "../ledger/standing.js";
import { runFields } from "../../domain/pull-request.js";
import { inlineCode } from "../../text/sanitize-markdown.js";

/** Answers a `/no-mistakes` comment: help, status and config for anyone; everything else for writers only. */
export async function handleCommand(deps: CommandDeps, job: CommandJob): Promise<void> {
  const log = deps.log.child({ deliveryId: job.deliveryId, command: job.command.kind, pr: job.prNumber });
  const github = await deps.github(job.installationId);
  const ref = repoRef(job);
  const reply = (body: string) => github.createIssueComment(ref, job.prNumber, body).then(() => undefined);
  const command = job.command;

  if (command.kind === "thread-reply") return handleThreadReply(deps, { ...job, command }, github, ref, log);
  if (command.kind === "help" || command.kind === "unknown") {
    return reply(`@${job.author} ${helpText(command.kind === "unknown" ? command.text : undefined)}`);
  }
  if (command.kind === "config") return handleConfigCommand(github, ref, job);
  const run = await ensureRun(deps.db, github, ref, job);
  if (command.kind === "status") {
    const { config } = await readRepoConfig(github, ref);
    const [findings, sessions, turns, rates] = await Promise.all([
      listFindings(deps.db, run.id),
      listRunAgentSessions(deps.db, run.id),
      listTurns(deps.db, run.id),
      readRepositoryOutcomeRates(deps.db, run.repositoryId, scorecardSince(new Date())),
    ]);
    return reply(renderStatus(run, findings, sessions, turns, config, rates));
  }

  if (command.kind === "ask") {
    if (!command.question)
      return reply(`@${job.author} Write the question after the command: \`/no-mistakes ask <question>\`.`);
    const who = await standing(github, ref, run, job.author);
    if (!who.author && !who.writer) {
      log.info({ author: job.author, permission: who.permission }, "command refused");
      await deps.refusals.refuse({
        kind: "unauthorized_command",
        repositoryFullName: run.repositoryFullName,
        prNumber: run.prNumber,
        actor: job.author,
        reason: `ask: not the pull request's author nor a writer (permission ${who.permission})`,
      });
      return reply(
        `@${job.author} \`/no-mistakes ask\` is for the pull request's author and people with write access to this repository (yours: ${who.permission}).`,
      );
    }
    await github.addReaction(ref, job.commentId, "eyes");
    await addRunCommand(deps.db, { runId: run.id, commentId: job.commentId, author: job.author, command });
    await deps.enqueueRun({ runId: run.id, trigger: "command", deliveryId: job.deliveryId });
    return;
  }

  const permission = await github.getPermission(ref, job.author);
  if (!WRITERS.has(permission)) {
    log.info({ author: job.author, permission }, "command refused");
    await deps.refusals.refuse({
      kind: "unauthorized_command",
      repositoryFullName: run.repositoryFullName,
      prNumber: run.prNumber,
      actor: job.author,
      reason: `${command.kind}: needs write access (permission ${permission})`,
    });
    return reply(
      `@${job.author} \`/no-mistakes ${command.kind}\` needs write access to this repository (yours: ${permission}). Anyone can use \`status\`, \`config\` and \`help\`.`,
    );
  }
  await github.addReaction(ref, job.commentId, "eyes");
  log.info({ author: job.author, runId: run.id }, "command accepted");

  switch (command.kind) {
    case "fix": {
      if (Array.isArray(command.findings) && command.findings.length === 0) {
        return reply(
          `@${job.author} I could not read ${command.invalid?.map(inlineCode).join(", ") ?? "those ids"} as finding ids; write them like \`NM-3\`.`,
        );
      }
      await addRunCommand(deps.db, { runId: run.id, commentId: job.commentId, author: job.author, command });
      await deps.enqueueRun({ runId: run.id, trigger: "command", deliveryId: job.deliveryId });
      return;
    }
    case "review":
      await addRunCommand(deps.db, { runId: run.id, commentId: job.commentId, author: job.author, command });
      await deps.enqueueRun({ runId: run.id, trigger: "command", deliveryId: job.deliveryId });
      return;
    case "dismiss": {
      const findings = await listFindings(deps.db, run.id);
      const finding = findings.find((f) => f.number === command.finding);
      if (command.finding === undefined || !finding) {
        return reply(
          `@${job.author} There is no finding ${command.finding !== undefined ? findingId(command.finding) : "with that id"} in this pull request. \`/no-mistakes status\` lists them.`,
        );
      }
      await updateFinding(
        deps.db,
        run.id,
        finding.number,
        { status: "dismissed", dismissReason: command.reason ?? null },
        {
          kind: "dismissed",
          actor: job.author,
          detail: command.reason ?? null,
          url: pullRequestAnchor.issueComment(job.commentId),
        },
      );
      // The summary (with its state line) and the last reviewed head's check run: a dismissed finding no longer blocks.
      const { config, problems } = await readRepoConfig(github, ref);
      await refreshVerdict(deps.db, github, ref, run, config, problems);
      return reply(
        `@${job.author} Dismissed ${findingId(finding.number)}; it will not be raised again in this pull request.`,
      );
    }
    case "reset":
      await deleteRunAgentSession(deps.db, run.id, command.role);
      return reply(
        `@${job.author} Forgot the ${command.role ? `${command.role}'s session` : "reviewer's and the fixer's sessions"}; the next turn starts fresh.`,
      );
    case "pause":
      await updateRun(deps.db, run.id, { state: "paused" });
      return reply(
        `@${job.author} Paused: pushes are no longer reviewed automatically. \`/no-mistakes resume\` turns them back on; \`/no-mistakes review\` still works.`,
      );
    case "learn":
      return handleLearnCommand(deps, job, github, ref, log.child({ runId: run.id }));
    case "resume":
      await updateRun(deps.db, run.id, { state: "open" });
      await deps.enqueueRun({ runId: run.id, trigger: "synchronize", deliveryId: job.deliveryId });
      return reply(`@${job.author} Resumed: pushes are reviewed again (the newest head is queued now).`);
  }
}

/** The PR's run; created from the PR itself when the app never saw it opened (installed later). */
async function ensureRun(db: Database, github: GitHubClient, ref: RepoRef, job: CommandJob): Promise<Run> {
  const existing = await findRun(db, job.repositoryId, job.prNumber);
  if (existing) return existing;
  const pr = await github.getPullRequest(ref, job.prNumber);
  const fields = runFields(job, pr);
  return upsertRun(db, { ...fields, prUpdatedAt: fields.prUpdatedAt === null ? null : new Date(fields.prUpdatedAt) });
}
