import { z } from "zod";
import { parseFindingId } from "../../domain/finding-id.js";

const schema = z.object({
  opinions: z.array(
    z.object({ id: z.string(), verdict: z.enum(["confirm", "refute"]), reason: z.string().optional() }),
  ),
});

export interface Opinion {
  number: number;
  verdict: "confirmed" | "refuted";
  reason: string;
}

/**
 * A second opinion's rulings, the first for each finding; undefined when the answer cannot be read (then
 * every finding is posted as the reviewer gave it). An entry that is not a ruling is skipped, not fatal.
 */
export function parseSecondOpinion(json: unknown): Opinion[] | undefined {
  const outer = z.object({ opinions: z.array(z.unknown()) }).safeParse(json);
  if (!outer.success) return undefined;
  const opinions: Opinion[] = [];
  for (const entry of outer.data.opinions) {
    const parsed = schema.shape.opinions.element.safeParse(entry);
    if (!parsed.success) continue;
    const number = parseFindingId(parsed.data.id);
    if (number === undefined || opinions.some((o) => o.number === number)) continue;
    const verdict = parsed.data.verdict === "confirm" ? "confirmed" : "refuted";
    opinions.push({ number, verdict, reason: (parsed.data.reason ?? "").slice(0, 1500) });
  }
  return opinions;
}
