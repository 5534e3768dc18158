import type { Logger } from "pino";
import { listFindings, updateFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";
import { GitError } from "../../git/git-error.js";
import { symlinkEscape } from "../../git/is-escaping-symlink.js";
import { budgetRefusal, spendOf } from "../sessions/check-budget.js";
import { findingId } from "../../domain/finding-id.js";
import { buildFixPrompt } from "./build-fix-prompt.js";
import { isWorkflowPath, pushTarget } from "./push-target.js";
import { verifyFix } from "./verify-fix.js";
import { neutralizeAgentText } from "./neutralize-agent-text.js";
import { parseFixerAnswer } from "./parse-fixer-answer.js";
import { codeBlock } from "../render/code-block.js";
import { shortSha } from "../render/labels.js";
import { sanitizeMarkdown } from "../render/sanitize-markdown.js";
import type { RunContext } from "../job/run-context.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { refreshSummary } from "../publish/refresh-summary.js";

export interface FixRequest {
  /** command (a maintainer asked) or auto-fix (fix.auto after a review) */
  trigger: "command" | "auto-fix";
  findings: "default" | "all" | "auto-fix" | number[];
  note?: string;
  /** Who asked, for the reply. */
  requestedBy?: string;
}

const PATCH_LIMIT = 60_000;

/**
 * A fixer turn: the agent edits the PR's head in the run's workspace; the bot commits with its own
 * identity and pushes fast-forward to the PR branch. Whatever happens, the PR gets a reply, and a
 * refused push carries the change as a patch so nothing is lost.
 */
export async function runFix(
  deps: PipelineDeps,
  ctx: RunContext,
  request: FixRequest,
  signal: AbortSignal,
): Promise<void> {
  const { config, github, ref } = ctx;
  const log: Logger = deps.log.child({ runId: ctx.run.id, role: "fixer" });
  const run = await ctx.current();
  if (!run || run.state === "closed") return;
  const reply = (body: string) => github.createIssueComment(ref, run.prNumber, body).then(() => undefined);
  const who = request.requestedBy ? `@${request.requestedBy} ` : "";

  // 1. Bounds: fix rounds and the PR's budget.
  const refusal = budgetRefusal(spendOf(await listTurns(deps.db, run.id)), config, "fixer");
  if (refusal) {
    deps.metrics?.refusals.inc({ kind: "budget" });
    return reply(`${who}No fix was attempted: ${refusal}.`);
  }

  // 2. Which findings.
  const ledger = await listFindings(deps.db, run.id);
  const open = ledger.filter((f) => f.status === "open");
  let chosen: Finding[];
  const notOpen: string[] = [];
  if (request.findings === "all") chosen = open;
  else if (request.findings === "default")
    chosen = open.filter((f) => f.severity === "error" || f.severity === "warning");
  else if (request.findings === "auto-fix") chosen = open.filter((f) => f.action === "auto-fix");
  else {
    chosen = [];
    for (const n of request.findings) {
      const f = open.find((o) => o.number === n);
      if (f) chosen.push(f);
      else notOpen.push(findingId(n));
    }
  }
  const notOpenNote = notOpen.length
    ? ` (${notOpen.join(", ")} ${notOpen.length === 1 ? "is" : "are"} not an open finding)`
    : "";
  if (chosen.length === 0) return reply(`${who}There is nothing to fix${notOpenNote}.`);

  // 3. Where the fix can go, as GitHub reports the PR now: its head repository and branch (a fork only with maintainer edits).
  const target = pushTarget(await github.getPullRequest(ref, run.prNumber), run.repositoryFullName);
  if ("refusal" in target) {
    log.info({ reason: target.refusal }, "fix not attempted: nowhere to push");
    deps.metrics?.refusals.inc({ kind: "push_target" });
    return reply(`${who}No fix was attempted: ${target.refusal}`);
  }
  const pushUrl = target.cloneUrl;

  // 4. The fixer turn, in the run's workspace at the head branch's tip.
  const workspace = deps.workspace(run);
  await workspace.ensure();
  const token = deps.gitToken(pushUrl, await github.installationToken());
  // Start from the branch's tip as it is now (our own earlier fix may not have reached the run yet):
  // a fast-forward push can only land on top of it.
  await workspace.fetch(pushUrl, [`+refs/heads/${target.branch}:refs/no-mistakes/branch`], { token });
  const startSha = await workspace.revParse("refs/no-mistakes/branch");
  await workspace.checkout(startSha);
  const outcome = await deps.sessions.run(run.id, "fixer", {
    trigger: request.trigger,
    headSha: startSha,
    prompt: buildFixPrompt({
      repository: run.repositoryFullName,
      prNumber: run.prNumber,
      findings: chosen,
      note: request.note,
    }),
    cwd: workspace.dir,
    timeoutMs: deps.agentTimeoutMs,
    signal,
    limits: config,
  });
  const answer = parseFixerAnswer(outcome.result.json, outcome.result.text);

  // 5. Commit: HEAD must still be where the turn started (an agent's own commits are folded back into the change).
  if ((await workspace.headSha()) !== startSha) {
    log.warn({ startSha }, "the fixer moved HEAD; its commits are folded into one bot commit");
    await workspace.resetSoft(startSha);
  }
  const fixedNumbers = (answer.fixed ?? chosen.map((f) => f.number)).filter((n) => chosen.some((f) => f.number === n));
  const fixed = chosen.filter((f) => fixedNumbers.includes(f.number));
  const declined = answer.declined.filter((d) => chosen.some((f) => f.number === d.number));
  const notPushed = (why: string, paths: string[]): Promise<void> =>
    reply(
      `${who}The fix was not pushed: ${why}\n\n${paths.map((p) => `- ${codeSpan(p)}`).join("\n")}\n\nNothing was changed on \`${target.branch}\`.`,
    );

  // 6. What the fixer left is data. Before git stages anything: no nested repository (`git add` would read a
  // `sub/.git` directory, or a `gitdir:` file naming another workspace, and record that repository's HEAD).
  const nested = await workspace.nestedRepositories();
  if (nested.length > 0) {
    log.warn({ paths: nested.slice(0, 20) }, "fix refused: it leaves a nested repository");
    countRefusedPush(deps, "nested_repository");
    return notPushed(
      "it leaves a `.git` file or directory inside the repository (a nested repository or a pointer to one), which no-mistakes never stages.",
      nested.slice(0, 20),
    );
  }
  const identity = await github.botIdentity();
  const sha = await workspace.commitAll(commitMessage(fixed.length ? fixed : chosen, answer.summary), identity);
  if (!sha) {
    return reply(
      `${who}The fixer looked at ${chosen.map((f) => findingId(f.number)).join(", ")} and found nothing to change.${declinedText(declined)}${summaryText(answer.summary)}`,
    );
  }

  // 7. No gitlink (a submodule entry names a commit of some other repository) in what the change adds or changes.
  const gitlinks = (await workspace.treeChanges(startSha, sha))
    .filter((c) => c.newMode === "160000")
    .map((c) => c.path);
  if (gitlinks.length > 0) {
    log.warn({ sha, paths: gitlinks.slice(0, 20) }, "fix refused: it adds or changes a gitlink");
    countRefusedPush(deps, "gitlink");
    return notPushed(
      "it adds or changes a submodule entry (a gitlink), which no-mistakes never commits.",
      gitlinks.slice(0, 20),
    );
  }

  // 8. Nothing that points out of the repository: every link's chain, followed through the other links of the new
  // tree, stays inside it (a link that already led out before the fix, unchanged, is the PR's own).
  const [before, after] = await Promise.all([workspace.symlinksAt(startSha), workspace.symlinksAt(sha)]);
  const escaping = [...after]
    .map(([path, linkTarget]) => ({ path, target: linkTarget, escape: symlinkEscape(path, after) }))
    .filter(
      (l) =>
        l.escape !== undefined && !(before.get(l.path) === l.target && symlinkEscape(l.path, before) !== undefined),
    );
  if (escaping.length > 0) {
    log.warn(
      { sha, links: escaping.map((l) => l.path) },
      "fix refused: it adds symbolic links that point outside the repository",
    );
    countRefusedPush(deps, "escaping_symlink");
    const list = escaping
      .slice(0, 20)
      .map(
        (l) =>
          `- ${codeSpan(l.path)} → ${codeSpan(l.target.slice(0, 200))}${l.escape === "cycle" ? " (a cycle of links)" : ""}`,
      )
      .join("\n");
    return reply(
      `${who}The fix was not pushed: it adds or retargets a symbolic link that points outside the repository (followed through the tree's other links), or a chain of links that never ends, which no-mistakes never commits.\n\n${list}\n\nNothing was changed on \`${target.branch}\`.`,
    );
  }

  // 9. Push, fast-forward only, where GitHub says the PR's head is at this moment; a refusal is reported with the change attached.
  const refuse = async (why: string): Promise<void> => {
    const patch = await workspace.formatPatch(startSha, sha);
    return reply(
      `${who}The fix was made but not pushed to \`${target.branch}\`: ${why}\n\n` +
        `<details><summary>The change, as a patch (${chosen.map((f) => findingId(f.number)).join(", ")})</summary>\n\n` +
        codeBlock(patch, PATCH_LIMIT, "diff") +
        "\n\n</details>",
    );
  };
  const workflows = (await workspace.changedFiles(startSha, sha))
    .flatMap((f) => [f.path, f.oldPath ?? f.path])
    .filter(isWorkflowPath);
  if (workflows.length > 0) {
    log.warn({ sha, workflows }, "fix not pushed: it changes workflow files");
    countRefusedPush(deps, "workflow_files");
    return refuse(
      `it changes workflow files (${[...new Set(workflows)].map((p) => `\`${sanitizeMarkdown(p).replace(/`/g, "'")}\``).join(", ")}), which GitHub only accepts from an App with the \`workflows\` permission — no-mistakes does not ask for it, so a change to CI stays with a person.`,
    );
  }
  const now = pushTarget(await github.getPullRequest(ref, run.prNumber), run.repositoryFullName);
  if (
    "refusal" in now ||
    now.cloneUrl !== target.cloneUrl ||
    now.branch !== target.branch ||
    now.repoFullName !== target.repoFullName
  ) {
    log.warn({ sha, was: target, now }, "fix not pushed: the pull request's head changed while the fixer worked");
    countRefusedPush(deps, "refusal" in now ? "push_target" : "head_moved");
    return refuse(
      "refusal" in now
        ? now.refusal
        : `the pull request's head changed while the fixer worked (now \`${sanitizeMarkdown(now.repoFullName)}:${sanitizeMarkdown(now.branch)}\`).`,
    );
  }
  try {
    await workspace.push(pushUrl, sha, target.branch, { token });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    log.warn({ kind: error.kind, sha }, "fix push refused");
    countRefusedPush(deps, "push_rejected");
    return refuse(pushRefusal(error));
  }
  // The fixer's own change proves nothing about its claims: from here, only the verifier or later changes count.
  for (const f of fixed)
    await updateFinding(deps.db, run.id, f.number, {
      status: "fix-pushed",
      evidenceFromSha: sha,
      verification: null,
      claimedResolvedSha: null,
    });
  log.info({ sha, fixed: fixed.map((f) => f.number) }, "fix pushed");
  deps.metrics?.fixPushes.inc({ outcome: "accepted" });
  await reply(
    `${who}Pushed ${commitLink(pushUrl, sha)} fixing ${fixed.map((f) => findingId(f.number)).join(", ") || "nothing the fixer would name"}.${notOpenNote}${declinedText(declined)}${summaryText(answer.summary)}\n\nThe push will be reviewed again${deps.verifier && fixed.length ? ", and an independent check rules on each fix first" : ""}.`,
  );

  // 10. Someone else checks the fixer's claims (a fresh verifier session).
  if (deps.verifier && fixed.length > 0) {
    const claimed = (await listFindings(deps.db, run.id)).filter((f) => fixed.some((x) => x.number === f.number));
    await verifyFix({
      db: deps.db,
      verifier: deps.verifier,
      github,
      ref,
      run,
      workspace,
      claimed,
      from: startSha,
      sha,
      timeoutMs: deps.agentTimeoutMs,
      signal,
      log,
    });
  }
  await refreshSummary(deps.db, github, ref, run, config);
}

/** A fixer commit that was not pushed: one refused push, and why. */
function countRefusedPush(
  deps: PipelineDeps,
  kind:
    | "nested_repository"
    | "gitlink"
    | "escaping_symlink"
    | "workflow_files"
    | "push_target"
    | "head_moved"
    | "push_rejected",
): void {
  deps.metrics?.fixPushes.inc({ outcome: "refused" });
  deps.metrics?.refusals.inc({ kind });
}

/**
 * The bot's commit message. The titles (the reviewer's words) and the summary (the fixer's) are agent text: they go
 * through `neutralizeAgentText`, so the message closes no issue, carries no trailer and mentions no one.
 */
function commitMessage(findings: Finding[], summary: string): string {
  const ids = findings.map((f) => findingId(f.number)).join(", ");
  const title = (f: Finding) => neutralizeAgentText(f.title.replace(/\s+/g, " "));
  const subject = `fix(no-mistakes): ${ids} — ${title(findings[0]!)}`.slice(0, 100);
  const lines = findings.map((f) => `- ${findingId(f.number)}: ${title(f)}`);
  return [subject, "", ...lines, ...(summary ? ["", neutralizeAgentText(summary.slice(0, 1500))] : [])].join("\n");
}

/** A path (or link target) as a code span in a reply. */
function codeSpan(text: string): string {
  return `\`${sanitizeMarkdown(text).replace(/`/g, "'")}\``;
}

function declinedText(declined: { number: number; reason: string }[]): string {
  if (declined.length === 0) return "";
  return `\n\nDeclined:\n${declined.map((d) => `- ${findingId(d.number)}: ${sanitizeMarkdown(d.reason) || "no reason given"}`).join("\n")}`;
}

function summaryText(summary: string): string {
  return summary ? `\n\n> ${sanitizeMarkdown(summary).replace(/\n/g, "\n> ")}` : "";
}

function pushRefusal(error: GitError): string {
  switch (error.kind) {
    case "rejected":
      return "the branch moved or is protected (the push was not a fast-forward, or a rule refused it).";
    case "auth":
      return "the app lacks permission to push there.";
    case "not-found":
      return "the branch or repository no longer exists.";
    default:
      return `git said: ${sanitizeMarkdown(error.message.slice(0, 300))}`;
  }
}

function commitLink(cloneUrl: string, sha: string): string {
  if (/^https?:\/\//.test(cloneUrl)) return `[${shortSha(sha)}](${cloneUrl.replace(/\.git$/, "")}/commit/${sha})`;
  return `\`${shortSha(sha)}\``;
}
