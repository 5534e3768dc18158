import { isMap, isScalar, parseDocument } from "yaml";
import { parseRepoConfig } from "../../config/repo/repo-config.js";

/**
 * A `.github/no-mistakes.yml` text (undefined: none) with `extra` appended to its `review.instructions`
 * (after a blank line; set when it had none), everything else as it was: the reviewer reads them where
 * it reads the team's own. Checked with the app's own parser: a text it would not take the instructions
 * from (a syntax error, `review` that is not a mapping, instructions past their length limit) is refused
 * with why, rather than reviewed without them.
 */
export function withExtraInstructions(configText: string | undefined, extra: string, source: string): string {
  const added = extra.trim();
  if (!added) throw new Error(`${source}: no instructions in it`);
  const doc = parseDocument(configText ?? "");
  if (doc.errors.length > 0)
    throw new Error(`${source}: the .github/no-mistakes.yml they go into does not parse: ${doc.errors[0]!.message}`);
  const review: unknown = doc.get("review", true);
  if (isScalar(review) && review.value === null)
    doc.set("review", doc.createNode({})); // `review:` with nothing under it
  else if (review !== undefined && !isMap(review))
    throw new Error(`${source}: the .github/no-mistakes.yml they go into has a \`review\` that is not a mapping`);
  const own = doc.getIn(["review", "instructions"]);
  const instructions = typeof own === "string" && own.trim() ? `${own.trimEnd()}\n\n${added}` : added;
  doc.setIn(["review", "instructions"], instructions);
  const text = doc.toString();
  const { config, problems } = parseRepoConfig(text);
  if (config.review.instructions !== instructions)
    throw new Error(
      `${source}: the app would not take these instructions: ${problems.join("; ") || "review.instructions refused"}`,
    );
  return text;
}
