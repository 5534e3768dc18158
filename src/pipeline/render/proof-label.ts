import type { Finding } from "../../db/schema.js";

/**
 * What the app's runs say of a finding, in a few words for tables and lists: reproduced (its reproducer failed
 * on the head as predicted), or unverified (an error nothing reproduced, lowered by `verify.blocking`, or a
 * reproducer that did not run as a test). Undefined when nothing was run or decided for it.
 */
export function proofLabel(f: Finding): string | undefined {
  if (f.reproduction === "reproduced") return "reproduced";
  if (f.secondOpinion === "confirmed") return `confirmed by ${f.secondOpinionBy ?? "a second opinion"}`;
  if (f.demotedFrom !== null) return `unverified, raised as ${f.demotedFrom}`;
  if (f.reproduction === "broken") return "unverified, its reproducer did not run as a test";
  return undefined;
}
