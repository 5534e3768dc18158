import { z } from "zod";

/** What the reviewer answers in a finding's thread. */
export const threadAnswerShape = z.object({
  ruling: z.enum(["upheld", "withdrawn", "deferred"]),
  reason: z.string().optional(),
  reply: z.string().trim().min(1),
});

/** What the reviewer answers to a question. */
export const askAnswerShape = z.object({ reply: z.string().trim().min(1) });

export type ThreadAnswer = z.infer<typeof threadAnswerShape>;
export type AskAnswer = z.infer<typeof askAnswerShape>;

export const THREAD_FORMAT = `{"ruling": "upheld | withdrawn | deferred", "reason": "one sentence: why", "reply": "your answer to them (markdown)"}`;
export const ASK_FORMAT = `{"reply": "your answer (markdown)"}`;

export type Parsed<T> = { ok: true; answer: T } | { ok: false; problems: string[] };

/** The agent's final message (already extracted as JSON, or undefined) checked against a shape. */
export function parseAnswer<T>(shape: z.ZodType<T>, json: unknown): Parsed<T> {
  if (json === undefined) return { ok: false, problems: ["the final message holds no JSON object"] };
  const result = shape.safeParse(json);
  if (result.success) return { ok: true, answer: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((i) => `${i.path.map(String).join(".") || "(answer)"}: ${i.message}`),
  };
}
