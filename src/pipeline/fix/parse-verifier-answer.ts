import { z } from "zod";
import { parseFindingId } from "../../domain/finding-id.js";

const schema = z.object({
  verdicts: z.array(z.object({ id: z.string(), fixed: z.boolean(), reason: z.string().optional() })),
});

export interface Verdict {
  number: number;
  fixed: boolean;
  reason: string;
}

/** The verifier's verdicts; undefined when its answer cannot be read (then nothing is confirmed). */
export function parseVerifierAnswer(json: unknown): Verdict[] | undefined {
  const parsed = schema.safeParse(json);
  if (!parsed.success) return undefined;
  const verdicts: Verdict[] = [];
  for (const v of parsed.data.verdicts) {
    const number = parseFindingId(v.id);
    if (number !== undefined && !verdicts.some((x) => x.number === number))
      verdicts.push({ number, fixed: v.fixed, reason: (v.reason ?? "").slice(0, 1500) });
  }
  return verdicts;
}
