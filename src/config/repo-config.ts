import { parse as parseYaml } from "yaml";
import { z } from "zod";

export const REPO_CONFIG_PATH = ".github/no-mistakes.yml";

const severity = z.enum(["error", "warning", "info"]);

const repoConfigSchema = z
  .object({
    review: z
      .object({
        /** Review automatically on open / push. */
        auto: z.boolean().default(true),
        /** Review draft PRs too. */
        drafts: z.boolean().default(false),
        /** Review pushes made by other bots (this app's own fixer pushes are always reviewed). */
        bots: z.boolean().default(false),
        /** Globs of paths left out of the review. */
        ignore: z
          .array(z.string().min(1))
          .default(["**/package-lock.json", "**/yarn.lock", "**/pnpm-lock.yaml", "**/*.min.js"]),
        /** Extra instructions for the reviewer. */
        instructions: z.string().max(8000).optional(),
        /** resume: later pushes continue the reviewer's session; cold: every review starts fresh. */
        session: z.enum(["resume", "cold"]).default("resume"),
        /** At most this many inline comments per review; the rest go into the review body. */
        max_comments: z.number().int().min(0).max(100).default(20),
        /** The check fails while open findings of this severity or worse remain; `never` always passes. */
        fail_on: z.union([severity, z.literal("never")]).default("error"),
        /** Diff bytes sent to the reviewer; larger diffs are reviewed in part, with a note. */
        max_diff_bytes: z.number().int().min(1000).max(5_000_000).default(400_000),
      })
      .strict()
      .prefault({}),
    fix: z
      .object({
        max_rounds: z.number().int().min(0).max(20).default(3),
        auto: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /**
     * Bounded by default: any push of any fork PR starts a paid review, so a PR gets at most this many
     * agent turns and this much spend (Codex reports no cost: its turns are bounded by max_turns).
     */
    limits: z
      .object({
        max_turns: z.number().int().min(1).default(30),
        max_cost_usd: z.number().positive().default(5),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type RepoConfig = z.infer<typeof repoConfigSchema>;

export const DEFAULT_REPO_CONFIG: RepoConfig = repoConfigSchema.parse({});

/**
 * Parses the repository's config text (from the default branch). A missing file gives the defaults;
 * a bad one gives the defaults plus every problem, for the check run to report.
 */
export function parseRepoConfig(text: string | undefined): { config: RepoConfig; problems: string[] } {
  if (text === undefined || text.trim() === "") return { config: DEFAULT_REPO_CONFIG, problems: [] };
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    return { config: DEFAULT_REPO_CONFIG, problems: [`not valid YAML: ${(error as Error).message.split("\n")[0]}`] };
  }
  const parsed = repoConfigSchema.safeParse(raw ?? {});
  if (parsed.success) return { config: parsed.data, problems: [] };
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.join(".") || "(top level)";
    return issue.code === "unrecognized_keys"
      ? `${where}: unknown key ${issue.keys.map((k) => `\`${k}\``).join(", ")}`
      : `${where}: ${issue.message}`;
  });
  return { config: DEFAULT_REPO_CONFIG, problems };
}
