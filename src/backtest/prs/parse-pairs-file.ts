import { z } from "zod";
import { parsePrKey, type PrKey } from "./pr-key.js";

const pairSchema = z
  .object({
    base: z.string().min(1),
    head: z.string().min(1),
    pr: z.union([z.string(), z.number()]).optional(),
    title: z.string().optional(),
  })
  .strict();

/** One PR of a pairs file: its base and head (any revision the clone knows), and optionally its key and title. */
export interface PrPair {
  base: string;
  head: string;
  key?: PrKey;
  title?: string;
}

/** A pairs file: `[{ "base": "<rev>", "head": "<rev>", "pr": "<url or number>"?, "title"? }]`. All problems in one throw. */
export function parsePairsFile(json: unknown, source = "pairs file"): PrPair[] {
  if (!Array.isArray(json)) throw new Error(`${source}: expected an array of { base, head, pr?, title? }`);
  const problems: string[] = [];
  const pairs: PrPair[] = [];
  for (const [i, value] of json.entries()) {
    const parsed = pairSchema.safeParse(value);
    if (!parsed.success) {
      problems.push(
        ...parsed.error.issues.map((x) => `[${i}]${x.path.map((p) => `.${String(p)}`).join("")}: ${x.message}`),
      );
      continue;
    }
    try {
      const { base, head, pr, title } = parsed.data;
      pairs.push({ base, head, ...(pr === undefined ? {} : { key: parsePrKey(pr) }), ...(title ? { title } : {}) });
    } catch (error) {
      problems.push(`[${i}]: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new Error(`${source}:\n  ${problems.join("\n  ")}`);
  return pairs;
}
