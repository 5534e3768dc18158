import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import { applicableGuidelines, type Guideline } from "../guidelines/applicable-guidelines.js";
import { BASE_REF } from "../workspace/prepare-workspace.js";
import type { PreparedWorkspace } from "../workspace/prepare-workspace.js";

/**
 * The maintainers' guidelines for the whole PR's changed paths (merge base..head, `ignore.paths` left
 * out), read from the base branch as fetched for this review — never from the head. Nothing is read when
 * there are no guideline files to look for and no `path_instructions`.
 */
export async function reviewGuidelines(
  workspace: GitWorkspace,
  ws: PreparedWorkspace,
  config: RepoConfig,
): Promise<Guideline[]> {
  if (!config.guidelines.enabled && config.path_instructions.length === 0) return [];
  const [baseSha, changed] = await Promise.all([
    workspace.revParse(BASE_REF),
    workspace.changedFiles(ws.mergeBase, ws.headSha, { excludeGlobs: config.ignore.paths }),
  ]);
  return applicableGuidelines(
    workspace,
    baseSha,
    changed.map((file) => file.path),
    config,
  );
}
