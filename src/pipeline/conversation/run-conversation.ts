// The conversation room: a finding's thread argued (argue, with its ruling), a question asked (ask),
// rulings confirmed by a writer's reaction (confirm-by-reactions), and the agent's answers posted. It
// imports the rooms below: publish, render, ledger, workspace, job, sessions.

import type { ConfigProblem } from "../../config/repo/config-problem.js";
import type { Logger } from "pino";
import type { ConversationCommand } from "../../domain/command.js";
import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { FindingChange } from "../../db/finding-events.js";
import { listFindings, updateFinding } from "../../db/findings.js";
import type { Finding, Run, RunCommand } from "../../db/schema.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { findingId } from "../../domain/finding-id.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import { answerMarker } from "../../text/labels.js";
import { sanitizeMarkdown } from "../../text/sanitize-markdown.js";
import type { RunContext } from "../job/run-context.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import {
  ASK_FORMAT,
  askAnswerShape,
  parseAnswer,
  THREAD_FORMAT,
  threadAnswerShape,
  type ThreadAnswer,
} from "./answer-formats.js";
import { buildAskPrompt, buildThreadPrompt, type ConversationContext } from "./build-conversation-prompt.js";
import { converse, type ConverseOutcome } from "./converse.js";
import { postIssueAnswer, postThreadAnswer } from "./post-answer.js";
import { refreshVerdict } from "../publish/refresh-verdict.js";
import { confirmPatch, rulingPatch } from "../ledger/ruling-state.js";
import { threadSoFar } from "./thread-so-far.js";

interface At {
  deps: PipelineDeps;
  run: Run;
  github: GitHubClient;
  ref: RepoRef;
  config: RepoConfig;
  configProblems: ConfigProblem[];
  pending: RunCommand;
  signal: AbortSignal;
  log: Logger;
}

/** A conversation command of the run (ask, argue, confirm), answered in the thread or the conversation it came from. */
export async function runConversation(
  deps: PipelineDeps,
  ctx: RunContext,
  pending: RunCommand,
  signal: AbortSignal,
): Promise<void> {
  const command = pending.command as ConversationCommand;
  const run = await ctx.current();
  if (!run || run.state === "closed") return;
  const { github, ref, config } = ctx;
  const log = deps.log.child({ runId: run.id, command: command.kind, commentId: pending.commentId });
  const at: At = { deps, run, github, ref, config, configProblems: ctx.configProblems, pending, signal, log };
  const finding =
    "finding" in command && command.finding !== undefined
      ? (await listFindings(deps.db, run.id)).find((f) => f.number === command.finding)
      : undefined;
  switch (command.kind) {
    case "argue":
      if (finding) await argue(at, command, finding);
      return;
    case "confirm":
      if (finding) await confirm(at, command, finding);
      return;
    case "ask":
      return ask(at, command, finding);
  }
}

function context(at: At, role: "author" | "writer"): Omit<ConversationContext, "finding" | "thread"> {
  return {
    repository: at.run.repositoryFullName,
    pr: { number: at.run.prNumber, title: at.run.title },
    from: {
      login: at.pending.author,
      role: role === "writer" ? "a maintainer with write access" : "the pull request's author",
    },
  };
}

/** A reply in a finding's thread: the reviewer rules, answers in the thread, and the ledger, summary and check follow. */
async function argue(
  at: At,
  command: Extract<ConversationCommand, { kind: "argue" }>,
  finding: Finding,
): Promise<void> {
  const { deps, run, github, ref, pending } = at;
  const id = findingId(finding.number);
  const marker = answerMarker(pending.commentId);
  const thread = await threadSoFar(github, ref, run.prNumber, command.threadId, pending.commentId);
  const prompt = buildThreadPrompt({
    ...context(at, command.byWriter ? "writer" : "author"),
    finding,
    thread,
    reply: command.body,
  });
  const outcome = await converse(
    deps,
    { ...at, command: pending },
    { trigger: "thread-reply", prompt, format: THREAD_FORMAT, parse: (json) => parseAnswer(threadAnswerShape, json) },
  );
  if (outcome.kind !== "answered") {
    await postThreadAnswer(
      github,
      ref,
      run.prNumber,
      command.threadId,
      notAnswered(outcome, `Nothing changed for ${id}`),
      marker,
    );
    return;
  }
  await rule(at, command, finding, outcome.answer, outcome.turnId);
}

/** The reviewer's ruling in the ledger, then in the thread; the summary and check follow. */
async function rule(
  at: At,
  command: Extract<ConversationCommand, { kind: "argue" }>,
  finding: Finding,
  answer: ThreadAnswer,
  turnId: number | undefined,
): Promise<void> {
  const { deps, run, github, ref, pending } = at;
  const id = findingId(finding.number);
  const reason = (answer.reason ?? answer.reply).trim().slice(0, 500);
  const patch = rulingPatch(finding, {
    ruling: answer.ruling,
    reason,
    by: pending.author,
    byWriter: command.byWriter,
    failOn: at.config.review.fail_on,
  });
  await updateFinding(deps.db, run.id, finding.number, patch, rulingEvent(answer.ruling, pending, turnId, reason));
  const ruled = { ...finding, ...patch } as Finding;
  const replyId = await postThreadAnswer(
    github,
    ref,
    run.prNumber,
    command.threadId,
    renderRuling(id, answer, ruled),
    answerMarker(pending.commentId),
  );
  await updateFinding(deps.db, run.id, finding.number, { rulingReplyId: replyId });
  at.log.info(
    { finding: finding.number, ruling: answer.ruling, confirmation: ruled.rulingConfirmation, status: ruled.status },
    "ruling recorded",
  );
  await refreshVerdict(deps.db, github, ref, run, at.config, at.configProblems);
}

/** The ruling in the finding's history: the reviewer rules, with who argued, in which reply and turn. */
function rulingEvent(kind: string, pending: RunCommand, turnId: number | undefined, reason: string): FindingChange {
  return {
    kind,
    actor: "reviewer",
    turnId: turnId ?? null,
    detail: `argued by ${pending.author}: ${reason}`,
    url: pullRequestAnchor.reviewComment(pending.commentId),
  };
}

function renderRuling(id: string, answer: ThreadAnswer, f: Finding): string {
  const reason = answer.reason ? ` — ${sanitizeMarkdown(answer.reason).replace(/\n+/g, " ")}` : "";
  let line: string;
  if (answer.ruling === "upheld") line = `**${id}: upheld**${reason}`;
  else if (f.rulingConfirmation === "awaiting")
    line = `**${id}: ${answer.ruling} at the author's request, awaiting a maintainer**${reason}\n\nIt keeps counting against the check until someone with write access confirms: a 👍 on this comment, or a reply saying \`confirm\`.`;
  else if (answer.ruling === "withdrawn")
    line = `**${id}: withdrawn**${reason}\n\nIt will not be raised again in this pull request.`;
  else line = `**${id}: deferred**${reason}\n\nIt stays open, without blocking the pull request.`;
  return `${sanitizeMarkdown(answer.reply)}\n\n${line}`;
}

/** A writer confirms the ruling the PR's author asked for. */
async function confirm(
  at: At,
  command: Extract<ConversationCommand, { kind: "confirm" }>,
  finding: Finding,
): Promise<void> {
  const { deps, run, github, ref, pending } = at;
  const id = findingId(finding.number);
  const marker = answerMarker(pending.commentId);
  if (finding.rulingConfirmation === "awaiting") {
    await updateFinding(deps.db, run.id, finding.number, confirmPatch(finding, pending.author), {
      kind: "confirmed",
      actor: pending.author,
      detail: `the ruling ${finding.ruling}`,
      url: pullRequestAnchor.reviewComment(pending.commentId),
    });
    at.log.info({ finding: finding.number, by: pending.author }, "ruling confirmed");
  }
  const current = (await listFindings(deps.db, run.id)).find((f) => f.number === finding.number)!;
  const body =
    current.rulingConfirmation === "confirmed"
      ? `Confirmed by @${current.rulingConfirmedBy ?? pending.author}: ${id} is ${current.ruling === "withdrawn" ? "withdrawn and will not be raised again in this pull request" : "deferred and no longer blocks the pull request"}.`
      : `There is no ruling on ${id} awaiting confirmation.`;
  await postThreadAnswer(github, ref, run.prNumber, command.threadId, body, marker);
  await refreshVerdict(deps.db, github, ref, run, at.config, at.configProblems);
}

/** A question: answered in its thread, or in the PR's conversation. Read-only: the ledger does not move. */
async function ask(
  at: At,
  command: Extract<ConversationCommand, { kind: "ask" }>,
  finding: Finding | undefined,
): Promise<void> {
  const { deps, run, github, ref, pending } = at;
  const marker = answerMarker(pending.commentId);
  const thread =
    command.threadId !== undefined
      ? await threadSoFar(github, ref, run.prNumber, command.threadId, pending.commentId)
      : undefined;
  const writer = pending.author.toLowerCase() !== run.authorLogin.toLowerCase();
  const prompt = buildAskPrompt({
    ...context(at, writer ? "writer" : "author"),
    finding,
    thread,
    question: command.question,
  });
  const outcome = await converse(
    deps,
    { ...at, command: pending },
    { trigger: "ask", prompt, format: ASK_FORMAT, parse: (json) => parseAnswer(askAnswerShape, json) },
  );
  const body =
    outcome.kind === "answered" ? sanitizeMarkdown(outcome.answer.reply) : notAnswered(outcome, "Nothing was answered");
  if (command.threadId !== undefined) await postThreadAnswer(github, ref, run.prNumber, command.threadId, body, marker);
  // the model's answer goes under the mention, on lines of its own: one that opens with a heading, list or
  // fence still renders as one; the bot's own one-line notices follow the mention on its line
  else {
    const lead = outcome.kind === "answered" ? `@${pending.author}\n\n` : `@${pending.author} `;
    await postIssueAnswer(github, ref, run.prNumber, `${lead}${body}`, marker);
  }
}

function notAnswered(outcome: Exclude<ConverseOutcome<unknown>, { kind: "answered" }>, nothing: string): string {
  if (outcome.kind === "refused")
    return `The reviewer was not asked: ${outcome.reason}. Raise the limit in \`.github/no-mistakes.yml\` to continue.`;
  return `The reviewer's answer could not be read (twice), so it is not posted. ${nothing}; its raw answers are kept with the run's turns. Reply again to ask once more.`;
}
