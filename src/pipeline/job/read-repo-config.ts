import type { ConfigProblem } from "../../config/config-problem.js";
import { readConfigLayers, type ConfigLayer } from "../../config/read-config-layers.js";
import { REPO_CONFIG_PATH, repoConfigFromLayers, type RepoConfig } from "../../config/repo-config.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";

/** The repository's config in effect, with what was wrong in its files and where each setting came from. */
export interface RepoConfigRead {
  config: RepoConfig;
  /** What is wrong in the files, each with its file and line (formatConfigProblem writes one as a line). */
  problems: ConfigProblem[];
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
    // the merged layers are refused only if the files' settings contradict each other: said of the repository's own file
    problems: [...problems, ...effective.problems.map((message) => ({ file: REPO_CONFIG_PATH, message }))],
    provenance: effective.provenance,
    layers,
  };
}
