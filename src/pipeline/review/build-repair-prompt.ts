import { ANSWER_FORMAT } from "./answer-format.js";

/**
 * The follow-up sent in the same reviewer session when its answer did not validate: the problems
 * found (as `parseReviewerAnswer` words them) and the format again, asking for the JSON only.
 */
export function buildRepairPrompt(problems: string[]): string {
  const listed =
    problems.length > 0
      ? problems.map((p) => `- ${p.replace(/\s+/g, " ").trim()}`)
      : ["- the answer could not be read"];
  return [
    `Your answer could not be used:`,
    ...listed,
    ``,
    `Answer again with the same review as only this JSON object, no prose, no code fence:`,
    ANSWER_FORMAT,
    ``,
  ].join("\n");
}
