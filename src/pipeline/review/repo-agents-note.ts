import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";

/** What of the repository's `agents:` does not apply, and why, for the review body; undefined when all does. */
export function repoAgentsNote(deps: PipelineDeps, config: RepoConfig): string | undefined {
  const problems = Object.entries(config.agents ?? {}).flatMap(([role, choice]) => {
    const problem = choice && deps.repoAgentProblem?.(choice);
    return problem ? [`\`agents.${role}\` names ${choice.agent}, but ${problem}`] : [];
  });
  return problems.length > 0 ? `${problems.join("; ")}.` : undefined;
}
