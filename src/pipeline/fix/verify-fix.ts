import type { Logger } from "pino";
import { toAgentError } from "../../agents/agent-error.js";
import type { Database } from "../../db/database.js";
import { updateFinding } from "../../db/findings.js";
import type { Finding, Run } from "../../db/schema.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { findingId } from "../../domain/finding-id.js";
import { shortSha } from "../../text/labels.js";
import { sanitizeMarkdown } from "../../text/sanitize-markdown.js";
import { replyOnce } from "../publish/reply-once.js";
import { resolveFindingThreads } from "../publish/resolve-finding-threads.js";
import type { RepoAgentChoice, RunSessions, TurnOutcome } from "../sessions/run-sessions.js";
import { buildVerifyPrompt } from "./build-verify-prompt.js";
import { parseVerifierAnswer, type Verdict } from "./parse-verifier-answer.js";

export interface VerifyFixInput {
  db: Database;
  verifier: RunSessions;
  github: GitHubClient;
  ref: RepoRef;
  run: Run;
  workspace: GitWorkspace;
  /** The findings the fixer says its commit fixed (now `fix-pushed`). */
  claimed: Finding[];
  from: string;
  sha: string;
  /** The claimed findings whose reproducer the app ran on the fix and saw pass, with its command. */
  passing?: { number: number; command: string }[];
  timeoutMs: number;
  /** The verifier's agent when the repository chose one (`agents.verifier`); its turn is not under the PR's limits. */
  agentChoice?: RepoAgentChoice;
  signal: AbortSignal;
  log: Logger;
}

interface Ruled {
  confirmed: number[];
  refuted: number[];
}

/**
 * The fixer's claims, checked by someone else: a verifier turn in a fresh session (never resumed, so
 * it cannot certify a fix it prescribed) reads the fix's diff and rules on each claimed finding.
 * Confirmed → resolved, with the reason in its thread; refuted → open again, with the reason in its
 * thread. No ruling (the turn failed, or said nothing of a finding) → the finding stays `fix-pushed`,
 * unverified, and keeps counting. Returns what was ruled.
 */
export async function verifyFix(input: VerifyFixInput): Promise<{ confirmed: number[]; refuted: number[] }> {
  const { log } = input;
  const ruled: Ruled = { confirmed: [], refuted: [] };
  const outcome = await askVerifier(input);
  if (!outcome) return ruled;
  const verdicts = parseVerifierAnswer(outcome.result.json);
  if (!verdicts) {
    log.warn({ answer: outcome.result.text.slice(0, 500) }, "verifier answer unreadable; the fix stays unverified");
    return ruled;
  }
  for (const finding of input.claimed) {
    const verdict = verdicts.find((v) => v.number === finding.number);
    if (!verdict) continue;
    await applyVerdict(input, finding, verdict, outcome.turnId ?? null, ruled);
  }
  log.info(
    {
      confirmed: ruled.confirmed,
      refuted: ruled.refuted,
      unruled: input.claimed.length - ruled.confirmed.length - ruled.refuted.length,
    },
    "fix verified",
  );
  return ruled;
}

/** The verifier's turn on the fix's diff; undefined when it failed (unless the job was cancelled: that is thrown). */
async function askVerifier(input: VerifyFixInput): Promise<TurnOutcome | undefined> {
  const { run } = input;
  try {
    const diff = await input.workspace.diff(input.from, input.sha);
    return await input.verifier.run(run.id, "verifier", {
      trigger: "verify",
      headSha: input.sha,
      prompt: buildVerifyPrompt({
        repository: run.repositoryFullName,
        prNumber: run.prNumber,
        findings: input.claimed,
        diff: diff.text,
        leftOut: diff.leftOut.map((f) => f.path),
        sha: input.sha,
        passing: input.passing ?? [],
      }),
      cwd: input.workspace.dir,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
      fresh: true,
      ...(input.agentChoice ? { agentChoice: input.agentChoice } : {}),
    });
  } catch (error) {
    if (input.signal.aborted) throw error;
    input.log.warn({ err: toAgentError(error) }, "verifier turn failed; the fix stays unverified");
    return undefined;
  }
}

/** One ruling, in the ledger and in the finding's thread; `ruled` gains the finding's number. */
async function applyVerdict(
  input: VerifyFixInput,
  finding: Finding,
  verdict: Verdict,
  turnId: number | null,
  ruled: Ruled,
): Promise<void> {
  const { run, github, ref, log } = input;
  const reason = sanitizeMarkdown(verdict.reason) || "no reason given";
  if (verdict.fixed) {
    ruled.confirmed.push(finding.number);
    await updateFinding(
      input.db,
      run.id,
      finding.number,
      { status: "fixed", verification: "confirmed", resolvedTurnId: turnId },
      { kind: "confirmed", actor: "verifier", turnId, detail: reason },
    );
    const passing = input.passing?.find((p) => p.number === finding.number)?.command;
    await resolveFindingThreads(github, ref, run.prNumber, input.sha, [finding], log, {
      note: `Confirmed by an independent check: ${reason}`,
      ...(passing !== undefined ? { passing } : {}),
    });
  } else {
    ruled.refuted.push(finding.number);
    await updateFinding(
      input.db,
      run.id,
      finding.number,
      { status: "open", verification: "refuted" },
      { kind: "refuted", actor: "verifier", turnId, detail: reason },
    );
    if (finding.commentId !== null) {
      await replyOnce(
        github,
        ref,
        run.prNumber,
        finding.commentId,
        `The fix in ${shortSha(input.sha)} does not resolve ${findingId(finding.number)}, by an independent check: ${reason}`,
      );
    }
  }
}
