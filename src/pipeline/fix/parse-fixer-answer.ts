import { z } from "zod";
import { parseFindingId } from "../../domain/finding-id.js";

const schema = z.object({
  summary: z.string().optional(),
  fixed: z.array(z.string()).optional(),
  declined: z.array(z.object({ id: z.string(), reason: z.string().optional() })).optional(),
});

export interface FixerAnswer {
  summary: string;
  /** Finding numbers the fixer says it fixed; undefined when it did not say. */
  fixed?: number[];
  declined: { number: number; reason: string }[];
}

/** The fixer's report; a fixer that answered in prose still gets its edits committed (its text becomes the summary). */
export function parseFixerAnswer(json: unknown, text: string): FixerAnswer {
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { summary: text.trim().slice(0, 2000), declined: [] };
  const numbers = (ids: string[]) => ids.map(parseFindingId).filter((n): n is number => n !== undefined);
  return {
    summary: (parsed.data.summary ?? "").slice(0, 2000),
    fixed: parsed.data.fixed ? numbers(parsed.data.fixed) : undefined,
    declined: (parsed.data.declined ?? [])
      .map((d) => ({ number: parseFindingId(d.id), reason: d.reason ?? "" }))
      .filter((d): d is { number: number; reason: string } => d.number !== undefined),
  };
}
