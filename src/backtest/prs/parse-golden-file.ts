import { z } from "zod";
import type { GoldenIssue, GoldenPr } from "./golden-pr.js";
import { parsePrKey } from "./pr-key.js";

const issueSchema = z
  .object({
    comment: z.string().min(1).optional(),
    body: z.string().min(1).optional(),
    severity: z.string().optional(),
    // null is "no place": GitHub's review comments carry `line: null` once outdated, and `path: null` is its like.
    path: z.string().min(1).nullable().optional(),
    line: z.number().int().positive().nullable().optional(),
  })
  .passthrough()
  .refine((c) => c.comment !== undefined || c.body !== undefined, { message: "an issue needs `comment`" });

const entrySchema = z
  .object({
    url: z.string().optional(),
    pr: z.union([z.string(), z.number()]).optional(),
    pr_url: z.string().optional(),
    number: z.number().int().positive().optional(),
    base: z.string().optional(),
    head: z.string().optional(),
    pr_title: z.string().optional(),
    title: z.string().optional(),
    // The public benchmark's own doubt about a PR ("reviewed commit is not in the repo", "there is no such PR").
    az_comment: z.string().nullable().optional(),
    comments: z.array(issueSchema),
  })
  .passthrough();

/**
 * A golden file's pull requests and their real issues. Accepted as is: the public benchmark's files (an
 * array of `{ pr_title, url, comments: [{ comment, severity }] }`, a PR its curators doubt flagged by an
 * `az_comment`), and the same shape for a team's own
 * set, with an optional `path`/`line` per issue (null for none); the PR is named by `url`, `pr`, `pr_url`, `number` or
 * `base`+`head`. Also an object keyed by PR (URL, number or `base..head`) whose values are such entries or
 * just their `comments` arrays. Every problem is reported in one throw.
 */
export function parseGoldenFile(json: unknown, source = "golden file"): GoldenPr[] {
  const entries: { at: string; keyed?: string; value: unknown }[] = Array.isArray(json)
    ? json.map((value, i) => ({ at: `[${i}]`, value }))
    : json !== null && typeof json === "object"
      ? Object.entries(json).map(([keyed, value]) => ({
          at: JSON.stringify(keyed),
          keyed,
          value: Array.isArray(value) ? { comments: value } : value,
        }))
      : [];
  if (entries.length === 0 && !Array.isArray(json))
    throw new Error(`${source}: expected an array of pull requests or an object keyed by pull request`);
  const problems: string[] = [];
  const prs: GoldenPr[] = [];
  for (const { at, keyed, value } of entries) {
    const parsed = entrySchema.safeParse(value);
    if (!parsed.success) {
      problems.push(
        ...parsed.error.issues.map((i) => `${at}${i.path.map((p) => `.${String(p)}`).join("")}: ${i.message}`),
      );
      continue;
    }
    const e = parsed.data;
    const named =
      keyed ?? e.url ?? e.pr_url ?? e.pr ?? e.number ?? (e.base && e.head ? `${e.base}..${e.head}` : undefined);
    if (named === undefined) {
      problems.push(`${at}: no pull request named (url, pr, number, or base and head)`);
      continue;
    }
    try {
      const key = parsePrKey(named);
      const issues: GoldenIssue[] = e.comments.map((c) => ({
        comment: (c.comment ?? c.body)!,
        severity: (c.severity ?? "unspecified").trim().toLowerCase() || "unspecified",
        ...(c.path ? { path: c.path } : {}),
        ...(c.line ? { line: c.line } : {}),
      }));
      const flag = e.az_comment?.trim();
      prs.push({ key, title: e.pr_title ?? e.title, issues, ...(flag ? { flag } : {}) });
    } catch (error) {
      problems.push(`${at}: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new Error(`${source}:\n  ${problems.join("\n  ")}`);
  return prs;
}
