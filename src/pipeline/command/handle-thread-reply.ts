import type { Logger } from "pino";
import { addRunCommand } from "../../db/run-commands.js";
import { findRun } from "../../db/runs.js";
import type { Finding, Run } from "../../db/schema.js";
import { mentionsBot } from "../../domain/bot-mentions.js";
import type { CommandJob } from "../../domain/command-job.js";
import type { ConversationCommand } from "../../domain/command.js";
import { findingId } from "../../domain/finding-id.js";
import { isConfirmation } from "../../domain/is-confirmation.js";
import { parseCommand } from "../../domain/parse-command.js";
import type { ThreadReply } from "../../domain/thread-reply.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { answerMarker } from "../../text/labels.js";
import { standing } from "../ledger/standing.js";
import { replyOnce } from "../publish/reply-once.js";
import type { CommandDeps } from "./command-deps.js";
import { threadFinding } from "./thread-finding.js";

type ThreadJob = CommandJob & { command: ThreadReply };
type Standing = Awaited<ReturnType<typeof standing>>;

/**
 * A person's comment in a review thread. In the thread of one of the bot's findings (its first comment
 * written by the bot's user, carrying a finding marker) the PR's author and writers argue, and a writer
 * confirms a ruling the author asked for; anywhere, a comment that mentions the bot or says
 * `/no-mistakes ask` asks the reviewer. Everything else, and everyone else, gets no turn.
 */
export async function handleThreadReply(
  deps: CommandDeps,
  job: ThreadJob,
  github: GitHubClient,
  ref: RepoRef,
  log: Logger,
): Promise<void> {
  const reply = job.command;
  const run = await findRun(deps.db, job.repositoryId, job.prNumber);
  if (!run) return log.info("review comment on a PR this app has not reviewed; ignored");
  const bot = await github.botIdentity();
  if (reply.authorId === bot.id) return;
  const finding = await threadFinding(deps.db, github, ref, run, reply.threadId);
  const asked = parseCommand(reply.body);
  const asks = reply.asks && (asked?.kind === "ask" || mentionsBot(reply.body, bot.login));
  if (!finding && !asks)
    return log.debug({ threadId: reply.threadId }, "reply in a thread that is not one of the bot's findings; ignored");

  const who = await standing(github, ref, run, job.author);
  const answerInThread = (body: string) =>
    replyOnce(github, ref, job.prNumber, reply.threadId, `${body}\n\n${answerMarker(job.commentId)}`);
  const queue = (command: ConversationCommand) => queueThreadCommand(deps, job, run.id, command, github, ref, log);

  // A writer confirms a ruling the PR's author asked for.
  if (finding && finding.rulingConfirmation === "awaiting" && isConfirmation(reply.body)) {
    if (!who.writer) {
      return answerInThread(
        `Only someone with write access to this repository can confirm the ruling on ${findingId(finding.number)} (yours: ${who.permission}).`,
      );
    }
    return queue({ kind: "confirm", threadId: reply.threadId, finding: finding.number });
  }
  if (!who.author && !who.writer) {
    await refuseThreadReply(deps, job, run, finding, who, log);
    // Said only to someone who addressed the bot: a passing remark in a thread gets no answer at all.
    if (!asks) return;
    return answerInThread(
      `Only the pull request's author and people with write access to this repository can ${finding ? `argue ${findingId(finding.number)}` : "ask the reviewer"} (yours: ${who.permission}).`,
    );
  }
  if (finding && asked?.kind !== "ask") {
    return queue({
      kind: "argue",
      threadId: reply.threadId,
      finding: finding.number,
      body: reply.body,
      byWriter: who.writer,
    });
  }
  const question = asked?.kind === "ask" && asked.question ? asked.question : reply.body;
  return queue({ kind: "ask", question, threadId: reply.threadId, ...(finding ? { finding: finding.number } : {}) });
}

/** A thread reply from someone who is neither the PR's author nor a writer: logged and recorded, no turn. */
async function refuseThreadReply(
  deps: CommandDeps,
  job: ThreadJob,
  run: Run,
  finding: Finding | undefined,
  who: Standing,
  log: Logger,
): Promise<void> {
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
}

/** Conversation work for the reviewer, handed to the run's queue: the comment gets 👀 at once. */
async function queueThreadCommand(
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
