import { formatConfigProblem } from "../../config/config-problem.js";
import { readConfigLayers, type ConfigLayer } from "../../config/read-config-layers.js";
import { repoConfigFromLayers, type RepoConfig } from "../../config/repo-config.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";

/** The repository's config in effect, with what was wrong in its files and where each setting came from. */
export interface RepoConfigRead {
  config: RepoConfig;
  /** One line each, with the file and line: ``.github/no-mistakes.yml line 7: `review.max_comments`: …``. */
  problems: string[];
  /** The layer (its `source`) each setting some file sets came from; a setting not here is a default. */
  provenance: Record<string, string>;
  /** The files in effect, nearest first. */
  layers: ConfigLayer[];
}

/**
 * The repository's `.github/no-mistakes.yml` over its bases (its owner's `.github` defaults, or what its
 * `_extends` names), all from default branches only: a PR cannot change them.
 */
export async function readRepoConfig(github: GitHubClient, ref: RepoRef): Promise<RepoConfigRead> {
  const { layers, problems } = await readConfigLayers(github, ref);
  const effective = repoConfigFromLayers([...layers].reverse());
  return {
    config: effective.config,
    problems: [...problems.map(formatConfigProblem), ...effective.problems],
    provenance: effective.provenance,
    layers,
  };
}
