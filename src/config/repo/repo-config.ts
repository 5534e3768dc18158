// The repo room: a repository's .github/no-mistakes.yml. repo-config (this file) is its schema, defaults and
// the settled RepoConfig; beside it, reading the layers in effect (the repository's file, its owner's `.github`
// defaults, `_extends` bases), settling each (YAML with line numbers, problems in a maintainer's words) and
// merging them, the title patterns of `ignore.title` and the linear-time regular expressions they and the
// path and branch globs compile to. It imports src/domain and, for the agents' names, the env room's roles.
import { z } from "zod";
import { AGENT_NAMES } from "../env/agent-roles.js";
import { titlePatternProblem } from "./title-pattern.js";
import { formatConfigProblem } from "./config-problem.js";
import { mergeConfigLayers } from "./merge-config-layers.js";
import { settleConfigLayer, type SettledLayer } from "./settle-config-layer.js";

export const REPO_CONFIG_PATH = ".github/no-mistakes.yml";

const severity = z.enum(["error", "warning", "info"]);

/** Lockfiles and generated files: left out of every review unless `ignore.paths` says otherwise. */
export const DEFAULT_IGNORED_PATHS = [
  "**/package-lock.json",
  "**/yarn.lock",
  "**/pnpm-lock.yaml",
  "**/Cargo.lock",
  "**/poetry.lock",
  "**/go.sum",
  "**/composer.lock",
  "**/Gemfile.lock",
  "**/*.min.js",
  "**/*.min.css",
  "**/*.map",
  "**/*.snap",
  "**/dist/**",
  "**/vendor/**",
  "**/*.generated.*",
  "**/*.pb.go",
];

/** Guideline files read from the default branch, in this order; globs allowed (`*.instructions.md`). */
export const DEFAULT_GUIDELINE_FILES = [
  "AGENTS.md",
  "CLAUDE.md",
  ".github/copilot-instructions.md",
  ".github/instructions/*.instructions.md",
  ".cursor/rules/*.mdc",
  ".github/no-mistakes/learnings.md",
];

export const DEFAULT_LEARNINGS_PATH = ".github/no-mistakes/learnings.md";

/** Files whose content decides a setup's cache: the dependency manifests and lockfiles of the usual toolchains. */
export const DEFAULT_SETUP_INPUTS = [
  "**/package.json",
  "**/package-lock.json",
  "**/npm-shrinkwrap.json",
  "**/yarn.lock",
  "**/pnpm-lock.yaml",
  "**/.npmrc",
  "**/requirements*.txt",
  "**/pyproject.toml",
  "**/poetry.lock",
  "**/uv.lock",
  "**/Pipfile",
  "**/Pipfile.lock",
  "**/setup.py",
  "**/setup.cfg",
  "**/go.mod",
  "**/go.sum",
  "**/Cargo.toml",
  "**/Cargo.lock",
  "**/Gemfile",
  "**/Gemfile.lock",
];

/** A time limit: seconds as a number, or `90s`, `10m`; at most an hour. */
const duration = z
  .union([z.number().int().min(1).max(3600), z.string().regex(/^\d+(s|m)$/, "a number of seconds, or `90s`, `10m`")])
  .transform((v) => (typeof v === "number" ? v : Number(v.slice(0, -1)) * (v.endsWith("m") ? 60 : 1)))
  .refine((seconds) => seconds >= 1 && seconds <= 3600, "between 1 second and 60 minutes");

/** One command of the repository's: `npm ci`, or `{ run: npm ci, timeout: 10m }`. */
const command = (defaultTimeout: number) =>
  z
    .union([
      z.string().min(1).max(2000),
      z
        .object({
          name: z.string().min(1).max(100).optional(),
          run: z.string().min(1).max(2000),
          timeout: duration.optional(),
        })
        .strict(),
    ])
    .transform((c) => {
      const spec = typeof c === "string" ? { run: c } : c;
      return { name: spec.name ?? spec.run.slice(0, 100), run: spec.run, timeout: spec.timeout ?? defaultTimeout };
    });

/** A role's agent in the repository's config: `{ agent: codex, model: gpt-5.5 }`. */
const agentChoice = z.object({ agent: z.enum(AGENT_NAMES), model: z.string().min(1).max(200).optional() }).strict();

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
        /** Globs of paths left out of the review (kept for older files; `ignore.paths` is the place). */
        ignore: z.array(z.string().min(1)).optional(),
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
        /**
         * Another agent (one the operator configured) confirms or refutes each blocking finding in a fresh
         * session before it is posted; a refuted one is kept as a note. Not asked of a reproduced finding.
         */
        second_opinion: z.enum(AGENT_NAMES).optional(),
      })
      .strict()
      .prefault({}),
    fix: z
      .object({
        max_rounds: z.number().int().min(0).max(20).default(3),
        auto: z.boolean().default(false),
        /** With checks: the fixer also commits each fixed finding's reproducer as a regression test. */
        add_regression_tests: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    /**
     * How to prepare a scratch checkout of a head and test it, from default branches only: setup commands
     * (the registries the operator allows are reachable; the result is cached) and check commands (no
     * network). With neither, nothing of the repository's runs.
     */
    checks: z
      .object({
        setup: z.array(command(600)).max(10).default([]),
        commands: z.array(command(600)).max(20).default([]),
        /** Files (globs) whose content keys the setup's cache. */
        setup_inputs: z.array(z.string().min(1)).default(DEFAULT_SETUP_INPUTS),
      })
      .strict()
      .prefault({}),
    /** Proof by execution: reproducers the reviewer writes, run by the app. */
    verify: z
      .object({
        /** Ask the reviewer for a reproducer with each finding it can show failing, and run it (needs `checks`). */
        reproducers: z.boolean().default(true),
        /** Errors with no reproduction: `demote` to warnings marked unverified, `keep`, `drop`; default demote with checks. */
        blocking: z.enum(["demote", "keep", "drop"]).optional(),
        /** One reproducer's time limit. */
        reproducer_timeout: duration.default(120),
      })
      .strict()
      .prefault({}),
    /**
     * An agent (and model) per role for this repository: applied only where the operator allows it
     * (AGENTS_FROM_REPO=on) and to agents the app has a key for; otherwise the operator's agents run, and the
     * review body says why.
     */
    agents: z
      .object({ reviewer: agentChoice, fixer: agentChoice, verifier: agentChoice })
      .partial()
      .strict()
      .optional(),
    /** The maintainers' rule files, from the default branch only, given to the reviewer and the fixer. */
    guidelines: z
      .object({
        enabled: z.boolean().default(true),
        /** Paths or globs; a file named AGENTS.md or CLAUDE.md applies to the paths under its folder (the nearest wins). */
        files: z.array(z.string().min(1)).default(DEFAULT_GUIDELINE_FILES),
        /** Bytes of guidelines a prompt gets, most specific first; what is cut is said. */
        max_bytes: z.number().int().min(0).max(200_000).default(16_000),
      })
      .strict()
      .prefault({}),
    /** Instructions for the paths a glob matches (`src/db/**`), given with the guidelines. */
    path_instructions: z
      .array(z.object({ path: z.string().min(1), instructions: z.string().min(1).max(8000) }).strict())
      .default([]),
    /** What is not reviewed automatically (an explicit `/no-mistakes review` still is), and what is left out. */
    ignore: z
      .object({
        /** Globs of paths left out of the review and of inline placement. */
        paths: z.array(z.string().min(1)).default(DEFAULT_IGNORED_PATHS),
        /** Logins whose PRs are not reviewed automatically. */
        authors: z.array(z.string().min(1)).default([]),
        /** Labels that keep a PR from automatic review. */
        labels: z.array(z.string().min(1)).default([]),
        /** Title patterns (text, case-insensitive; `/regex/` for a regular expression), e.g. `WIP`, `[skip review]`. */
        title: z
          .array(
            z
              .string()
              .min(1)
              .max(1000)
              .superRefine((pattern, ctx) => {
                const problem = titlePatternProblem(pattern);
                if (problem) ctx.addIssue({ code: "custom", message: problem });
              }),
          )
          .default([]),
        /** Globs of base branches whose PRs are not reviewed automatically. */
        base_branches: z.array(z.string().min(1)).default([]),
        /** Globs of head branches whose PRs are not reviewed automatically. */
        head_branches: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .prefault({}),
    /** Where `/no-mistakes learn` proposes the team's decisions, as a pull request. */
    learnings: z
      .object({ path: z.string().min(1).default(DEFAULT_LEARNINGS_PATH) })
      .strict()
      .prefault({}),
    /** Settings inherited from another repository's file (`repo`, `owner/repo`, `owner/repo:path`), as in Probot. */
    _extends: z.string().min(1).optional(),
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
  .strict()
  .transform((config) => {
    // `review.ignore`, where older files put the globs, still counts: it replaces the defaults, as it did
    if (!config.review.ignore) return config;
    const defaults = JSON.stringify(config.ignore.paths) === JSON.stringify(DEFAULT_IGNORED_PATHS);
    const paths = [...(defaults ? [] : config.ignore.paths), ...config.review.ignore];
    return { ...config, ignore: { ...config.ignore, paths } };
  });

export type RepoConfig = z.infer<typeof repoConfigSchema>;

export const DEFAULT_REPO_CONFIG: RepoConfig = repoConfigSchema.parse({});

/** One config file checked on its own against the schema (see settleConfigLayer). */
export function settleRepoConfigLayer(text: string | undefined, file: string = REPO_CONFIG_PATH): SettledLayer {
  return settleConfigLayer(repoConfigSchema, text, file);
}

/**
 * The config in effect from settled layers (farthest first, the nearer on top), with the layer each
 * setting came from; a setting no layer sets has its default (and no entry in `provenance`).
 */
export function repoConfigFromLayers(layers: readonly { source: string; settings: Record<string, unknown> }[]): {
  config: RepoConfig;
  provenance: Record<string, string>;
  problems: string[];
} {
  const { merged, provenance } = mergeConfigLayers(layers);
  // `review.ignore` fills `ignore.paths` (see the transform above)
  if (provenance["review.ignore"] && !provenance["ignore.paths"])
    provenance["ignore.paths"] = provenance["review.ignore"];
  const parsed = repoConfigSchema.safeParse(merged);
  if (parsed.success) return { config: parsed.data, provenance, problems: [] };
  // each layer was valid on its own and no setting depends on another, so this is not expected; said if it happens
  const message = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  return {
    config: DEFAULT_REPO_CONFIG,
    provenance: {},
    problems: [`the merged config was refused, so defaults were used: ${message}`],
  };
}

/**
 * Parses one config text (the repository's own, from the default branch) without its layers. A missing
 * file gives the defaults; a bad setting is left out (its default used) and reported with file and line.
 */
export function parseRepoConfig(
  text: string | undefined,
  file: string = REPO_CONFIG_PATH,
): { config: RepoConfig; problems: string[] } {
  const layer = settleRepoConfigLayer(text, file);
  const { config, problems } = repoConfigFromLayers([{ source: file, settings: layer.settings }]);
  return { config, problems: [...layer.problems.map(formatConfigProblem), ...problems] };
}
