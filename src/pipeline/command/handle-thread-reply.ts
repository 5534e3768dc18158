import type { Logger } from "pino";
import { listFindings } from "../../db/findings.js";
import { addRunCommand } from "../../db/run-commands.js";
import { findRun } from "../../db/runs.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { findingId, parseFindingId } from "../../domain/finding-id.js";
import { ours } from "../publish/ours.js";
import { answerMarker, findingMarkerPattern } from "../../text/labels.js";
import { replyOnce } from "../publish/reply-once.js";
import type { CommandJob } from "../../domain/command-job.js";
import type { ConversationCommand } from "../../domain/command.js";
import { isConfirmation } from "../../domain/is-confirmation.js";
import type { CommandDeps } from "./command-deps.js";
import { parseCommand } from "../../domain/parse-command.js";
import { standing } from "../ledger/standing.js";
import type { ThreadReply } from "../../domain/thread-reply.js";
import { mentionsBot } from "../../domain/bot-mentions.js";

/**
 * A person's comment in a review thread. In the thread of one of the bot's findings (its first comment
 * written by the bot's user, carrying a finding marker) the PR's author and writers argue, and a writer
 * confirms a ruling the author asked for; anywhere, a comment that mentions the bot or says
 * `/no-mistakes ask` asks the reviewer. Everything else, and everyone else, gets no turn.
 */
export async function handleThreadReply(
  deps: CommandDeps,
  job: CommandJob & { command: ThreadReply },
  github: GitHubClient,
  ref: RepoRef,
  log: Logger,
): Promise<void> {
  const reply = job.command;
  const run = await findRun(deps.db, job.repositoryId, job.prNumber);
  if (!run) return log.info("review comment on a PR this app has not reviewed; ignored");
  const bot = await github.botIdentity();
  if (reply.authorId === bot.id) return;

  // Whose thread: only a first comment written by the bot's own user counts (markers can be typed by anyone).
  const root = (await ours(github, github.listPullReviewComments(ref, job.prNumber))).find(
    (c) => c.id === reply.threadId,
  );
  const number = root ? parseFindingId(findingMarkerPattern().exec(root.body)?.[1] ?? "") : undefined;
  const finding =
    number === undefined ? undefined : (await listFindings(deps.db, run.id)).find((f) => f.number === number);
  const asked = parseCommand(reply.body);
  const asks = reply.asks && (asked?.kind === "ask" || mentionsBot(reply.body, bot.login));
  if (!finding && !asks)
    return log.debug({ threadId: reply.threadId }, "reply in a thread that is not one of the bot's findings; ignored");

  const who = await standing(github, ref, run, job.author);
  const answerInThread = (body: string) =>
    replyOnce(github, ref, job.prNumber, reply.threadId, `${body}\n\n${answerMarker(job.commentId)}`);

  // A writer confirms a ruling the PR's author asked for.
  if (finding && finding.rulingConfirmation === "awaiting" && isConfirmation(reply.body)) {
    if (!who.writer) {
      return answerInThread(
        `Only someone with write access to this repository can confirm the ruling on ${findingId(finding.number)} (yours: ${who.permission}).`,
      );
    }
    return queue(
      deps,
      job,
      run.id,
      { kind: "confirm", threadId: reply.threadId, finding: finding.number },
      github,
      ref,
      log,
    );
  }

  if (!who.author && !who.writer) {
    log.info(
      { author: job.author, permission: who.permission, finding: finding?.number },
      "thread reply refused: not the PR's author nor a writer",
    );
    await deps.refusals.refuse({
      kind: "unauthorized_command",
      repositoryFullName: run.repositoryFullName,
      prNumber: run.prNumber,
      actor: job.author,
      reason: `thread reply${finding ? ` on ${findingId(finding.number)}` : ""}: not the pull request's author nor a writer (permission ${who.permission})`,
    });
    // Said only to someone who addressed the bot: a passing remark in a thread gets no answer at all.
    if (!asks) return;
    return answerInThread(
      `Only the pull request's author and people with write access to this repository can ${finding ? `argue ${findingId(finding.number)}` : "ask the reviewer"} (yours: ${who.permission}).`,
    );
  }

  if (finding && asked?.kind !== "ask") {
    return queue(
      deps,
      job,
      run.id,
      { kind: "argue", threadId: reply.threadId, finding: finding.number, body: reply.body, byWriter: who.writer },
      github,
      ref,
      log,
    );
  }
  const question = asked?.kind === "ask" && asked.question ? asked.question : reply.body;
  return queue(
    deps,
    job,
    run.id,
    { kind: "ask", question, threadId: reply.threadId, ...(finding ? { finding: finding.number } : {}) },
    github,
    ref,
    log,
  );
}

async function queue(
  deps: CommandDeps,
  job: CommandJob,
  runId: number,
  command: ConversationCommand,
  github: GitHubClient,
  ref: RepoRef,
  log: Logger,
): Promise<void> {
  await github.addReviewCommentReaction(ref, job.commentId, "eyes");
  await addRunCommand(deps.db, {
    runId,
    commentId: job.commentId,
    source: "review_comment",
    author: job.author,
    command,
  });
  await deps.enqueueRun({ runId, trigger: "command", deliveryId: job.deliveryId });
  log.info({ author: job.author, runId, kind: command.kind }, "thread reply queued for the reviewer");
}
