import { formatConfigProblem, type ConfigProblem } from "../../config/repo/config-problem.js";

/**
 * One problem in the config files (with its file and line) as a note on a check run or a review: the
 * setting was left out and the value below it applies.
 */
export function configProblemNote(problem: ConfigProblem): string {
  return `⚠️ A config file on the default branch has a problem; that setting was left out (the value below it applies): ${formatConfigProblem(problem)}`;
}
