import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "../../config/config-error.js";

const stepSchema = z
  .object({
    role: z.enum(["reviewer", "fixer", "verifier"]).optional(),
    /** Substring the prompt must contain. */
    match: z.string().optional(),
    /** Substrings the prompt must all contain (e.g. both texts a judge is asked to compare). */
    matchAll: z.array(z.string()).optional(),
    /** Any JSON: the agent's final message is this value, serialized. */
    answer: z.unknown().optional(),
    /** A raw final message instead of `answer`. */
    text: z.string().optional(),
    /**
     * What the agent leaves in the working directory, each entry one of: a file's `content`, a symbolic link to
     * `symlink`, or a gitlink (a submodule entry) staged in the index naming commit `gitlink`.
     */
    edits: z
      .array(
        z
          .object({
            path: z.string().min(1),
            content: z.string().optional(),
            symlink: z.string().optional(),
            gitlink: z
              .string()
              .regex(/^[0-9a-f]{40}$/)
              .optional(),
          })
          .strict()
          .refine((e) => [e.content, e.symlink, e.gitlink].filter((v) => v !== undefined).length === 1, {
            message: "an edit is exactly one of content, symlink or gitlink",
          }),
      )
      .optional(),
    /** When this call asks to resume, the resume fails as a dead session does. */
    failResume: z.boolean().optional(),
    exitCode: z.number().int().optional(),
    delayMs: z.number().int().nonnegative().optional(),
    /** The spend this call reports (dollars); 0 when absent. */
    costUsd: z.number().nonnegative().optional(),
    /** How many calls this step may answer; unlimited when absent. */
    times: z.number().int().positive().optional(),
  })
  .strict();

const scenarioSchema = z.object({ steps: z.array(stepSchema) }).strict();

export type FakeStep = z.infer<typeof stepSchema>;
export type FakeScenario = z.infer<typeof scenarioSchema>;

/** Reads and validates a FAKE_AGENT_SCENARIO file. */
export function loadFakeScenario(path: string): FakeScenario {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(`FAKE_AGENT_SCENARIO (${path})`, [(error as Error).message]);
  }
  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      `FAKE_AGENT_SCENARIO (${path})`,
      parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
    );
  }
  return parsed.data;
}
