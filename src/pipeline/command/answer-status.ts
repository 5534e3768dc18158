import { listFindings } from "../../db/findings.js";
import { readRepositoryOutcomeRates } from "../../db/repository-outcome-rates.js";
import { listRunAgentSessions } from "../../db/run-agent-sessions.js";
import type { Run } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";
import { scorecardSince } from "../../domain/scorecard-period.js";
import { readRepoConfig } from "../job/read-repo-config.js";
import type { CommandCall } from "./command-call.js";
import { renderStatus } from "./render-status.js";

/** `/no-mistakes status`, for anyone: the run's findings, sessions and spend, and the repository's scorecard line. */
export async function answerStatus({ deps, github, ref, reply }: CommandCall, run: Run): Promise<void> {
  const { config } = await readRepoConfig(github, ref);
  const [findings, sessions, turns, rates] = await Promise.all([
    listFindings(deps.db, run.id),
    listRunAgentSessions(deps.db, run.id),
    listTurns(deps.db, run.id),
    readRepositoryOutcomeRates(deps.db, run.repositoryId, scorecardSince(new Date())),
  ]);
  return reply(renderStatus(run, findings, sessions, turns, config, rates));
}
