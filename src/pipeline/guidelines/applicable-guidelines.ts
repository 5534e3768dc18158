// The guidelines room: the maintainers' rules for the files a pull request changes, read from its base
// commit only (what was merged; never the head, where the author writes) — rule files named by
// `guidelines.files` and `learnings.path` (read-guideline-files, split-front-matter), those that apply to
// the changed paths with the nearest AGENTS.md / CLAUDE.md winning (select-guidelines, match-glob), the
// `path_instructions` of the config, and the marked block a prompt carries within `guidelines.max_bytes`,
// only what a resumed session has not been given (render-guidelines-block, fit-guidelines,
// read-guideline-digests). It imports workspace, job and sessions; review and fix import it.

import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { Guideline } from "./guideline.js";
import { readGuidelineFiles } from "./read-guideline-files.js";
import { selectGuidelines } from "./select-guidelines.js";

export type { Guideline } from "./guideline.js";

/**
 * The guidelines that apply to `changedPaths`, most specific first, from the rule files of `baseSha` (none
 * with `guidelines.enabled: false`) and the config's `path_instructions`. Git is not asked when there is
 * nothing to read.
 */
export async function applicableGuidelines(
  workspace: GitWorkspace,
  baseSha: string,
  changedPaths: readonly string[],
  config: Pick<RepoConfig, "guidelines" | "learnings" | "path_instructions">,
): Promise<Guideline[]> {
  const files = config.guidelines.enabled ? await readGuidelineFiles(workspace, baseSha, config) : [];
  return selectGuidelines(files, changedPaths, config.path_instructions);
}
