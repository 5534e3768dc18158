import { answerFormat, type ReproducersAsked } from "./answer-format.js";

/**
 * The follow-up sent in the same reviewer session when its answer did not validate: the problems
 * found (as `parseReviewerAnswer` words them) and the format again, asking for the JSON only.
 */
export function buildRepairPrompt(problems: string[], reproducers?: ReproducersAsked): string {
  const listed =
    problems.length > 0
      ? problems.map((p) => `- ${p.replace(/\s+/g, " ").trim()}`)
      : ["- the answer could not be read"];
  return [
    `Your answer could not be used:`,
    ...listed,
    ``,
    `Answer again with the same review as only this JSON object, no prose, no code fence:`,
    answerFormat(reproducers),
    ``,
  ].join("\n");
}
