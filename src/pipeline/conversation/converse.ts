import type { Logger } from "pino";
import type { RepoConfig } from "../../config/repo/repo-config.js";
import { setRunCommandAnswer } from "../../db/run-commands.js";
import type { Run, RunCommand } from "../../db/schema.js";
import { listTurns, setTurnRawAnswer } from "../../db/turns.js";
import type { GitHubClient } from "../../github/github-client.js";
import { budgetRefusal, spendOf } from "../sessions/check-budget.js";
import { prepareWorkspace } from "../workspace/prepare-workspace.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { Parsed } from "./answer-formats.js";
import { buildConversationRepairPrompt } from "./build-conversation-prompt.js";

export interface ConverseRequest<T> {
  /** The turn's trigger: `thread-reply` or `ask`. */
  trigger: string;
  prompt: string;
  /** The answer format, repeated in the repair request. */
  format: string;
  parse: (json: unknown) => Parsed<T>;
}

/** An answer carries the turn that gave it (absent when the turn was not recorded, or kept before turns were). */
export type ConverseOutcome<T> =
  | { kind: "answered"; answer: T; turnId?: number }
  | { kind: "unreadable"; problems: string[] }
  | { kind: "refused"; reason: string };

/** What is kept with the run command once the agent has answered. */
type Stored<T> = { kind: "answered"; answer: T; turnId?: number } | { kind: "unreadable"; problems: string[] };

/**
 * One reviewer turn of a conversation, through RunSessions like every turn (resumed, or fresh when the
 * session is gone — the prompt carries all it needs): within the PR's turn and cost limits, in the run's
 * workspace at the PR's head (read-only for the reviewer), one repair request when the answer does not
 * parse. The outcome is kept with the command, so a retried job posts it without a second turn.
 */
export async function converse<T>(
  deps: PipelineDeps,
  at: { run: Run; github: GitHubClient; config: RepoConfig; command: RunCommand; signal: AbortSignal; log: Logger },
  request: ConverseRequest<T>,
): Promise<ConverseOutcome<T>> {
  const { run, github, config, command, signal, log } = at;
  const kept = command.answer as Stored<T> | null;
  if (kept?.kind === "answered" || kept?.kind === "unreadable") return kept;

  const refusal = budgetRefusal(spendOf(await listTurns(deps.db, run.id)), config, "reviewer");
  if (refusal) {
    await deps.refusals.refuse({
      kind: "budget",
      repositoryFullName: run.repositoryFullName,
      prNumber: run.prNumber,
      actor: command.author,
      reason: `${request.trigger}: the reviewer was not asked: ${refusal}; raise it in .github/no-mistakes.yml`,
    });
    return { kind: "refused", reason: refusal };
  }
  const workspace = deps.workspace(run);
  const ws = await prepareWorkspace(workspace, run, deps.gitToken(run.cloneUrl, await github.installationToken()), {
    full: false,
    log,
  });
  const turn = {
    trigger: request.trigger,
    headSha: ws.headSha,
    cwd: workspace.dir,
    timeoutMs: deps.agentTimeoutMs,
    signal,
    limits: config,
  };
  const first = await deps.sessions.run(run.id, "reviewer", {
    ...turn,
    prompt: request.prompt,
    fresh: config.review.session === "cold",
  });
  let parsed = request.parse(first.result.json);
  let answeredIn = first.turnId;
  if (!parsed.ok) {
    log.warn({ problems: parsed.problems }, "reviewer's answer unreadable; asking for a repair");
    const repair = await deps.sessions.run(run.id, "reviewer", {
      ...turn,
      trigger: "repair",
      prompt: buildConversationRepairPrompt(parsed.problems, request.format),
    });
    parsed = request.parse(repair.result.json);
    answeredIn = repair.turnId;
    if (!parsed.ok) {
      if (first.turnId !== undefined) await setTurnRawAnswer(deps.db, first.turnId, first.result.text);
      if (repair.turnId !== undefined) await setTurnRawAnswer(deps.db, repair.turnId, repair.result.text);
    }
  }
  const outcome: Stored<T> = parsed.ok
    ? { kind: "answered", answer: parsed.answer, turnId: answeredIn }
    : { kind: "unreadable", problems: parsed.problems };
  await setRunCommandAnswer(deps.db, command.id, outcome);
  return outcome;
}
