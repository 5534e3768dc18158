import type { ConfigProblem } from "../../config/repo/config-problem.js";
import { readConfigLayers, type ConfigLayer } from "../../config/repo/read-config-layers.js";
import { REPO_CONFIG_PATH, repoConfigFromLayers, type RepoConfig } from "../../config/repo/repo-config.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";

/** The repository's config in effect, with what was wrong in its files and where each setting came from. */
export interface RepoConfigRead {
  config: RepoConfig;
  /** What is wrong in the files, each with its file and line (formatConfigProblem writes one as a line). */
  problems: ConfigProblem[];
  /** The layer (its `source`) each setting some file sets came from; a setting not here is a default. */
  provenance: Record<string, string>;
  /** The files in effect, nearest first (each says whether its text may be shown on the PR). */
  layers: ConfigLayer[];
  /** The settings (key paths) a file that may not be shown set: their values are never quoted on the PR. */
  privateSettings: string[];
}

/** What stands for a problem in a file that may not be shown: counted, never quoted. */
const PRIVATE_PROBLEM: ConfigProblem = {
  file: "a config file in a private repository",
  message: "a problem not shown here; someone who can read that repository will find it in its file",
};

/**
 * The repository's `.github/no-mistakes.yml` over its bases (its owner's `.github` defaults, or what its
 * `_extends` names), all from default branches only: a PR cannot change them.
 */
export async function readRepoConfig(github: GitHubClient, ref: RepoRef): Promise<RepoConfigRead> {
  const { layers, problems } = await readConfigLayers(github, ref);
  const effective = repoConfigFromLayers([...layers].reverse());
  // a private file's problems quote its text: counted, never shown where anyone who sees the PR reads them
  const hidden = new Set(layers.filter((l) => !l.shown).map((l) => l.file));
  const hiddenSources = new Set(layers.filter((l) => !l.shown).map((l) => l.source));
  const shown = problems.filter((p) => !hidden.has(p.file));
  const unshown = problems.length - shown.length;
  return {
    config: effective.config,
    // the merged layers are refused only if the files' settings contradict each other: said of the repository's own file
    problems: [
      ...shown,
      ...Array.from({ length: unshown }, () => PRIVATE_PROBLEM),
      ...effective.problems.map((message) => ({ file: REPO_CONFIG_PATH, message })),
    ],
    provenance: effective.provenance,
    layers,
    privateSettings: Object.keys(effective.provenance).filter((key) => hiddenSources.has(effective.provenance[key]!)),
  };
}
