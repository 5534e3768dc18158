import type { RepoRef } from "../../domain/repo-ref.js";
import type { ConfigProblem } from "./config-problem.js";
import { configFileLabel, configFileSource, parseExtendsTarget, type ConfigFileRef } from "./extends-target.js";
import { REPO_CONFIG_PATH, settleRepoConfigLayer } from "./repo-config.js";
import type { SettledLayer } from "./settle-config-layer.js";

/** One config file in effect for a repository. */
export interface ConfigLayer {
  /** The repository's own file, its owner's `.github` defaults, or a base an `_extends` named. */
  kind: "repository" | "organisation" | "extends";
  /** What provenance calls it: `acme/widgets`, `acme/.github`, `acme/base:config/review.yml`. */
  source: string;
  /** What problems call it: `.github/no-mistakes.yml` (the repository's own), `acme/.github:.github/no-mistakes.yml`. */
  file: string;
  settings: Record<string, unknown>;
  /**
   * Whether its text may be shown to anyone who sees the pull request: the repository's own file, or a
   * base GitHub says is public and that no private file led to. A private (or internal) repository's
   * file, and every base after it, is applied but not shown.
   */
  shown: boolean;
}

/** At most this many bases under the repository's own file. */
export const MAX_EXTENDS = 3;

/** What reading the layers needs from GitHub (a GitHubClient is one): files on default branches, and who may read them. */
export interface ConfigFileSource {
  /** A file's text on a repository's default branch; undefined when the file or the repository is not there. */
  readDefaultBranchFile(ref: RepoRef, path: string): Promise<string | undefined>;
  /** Who may read a repository, as GitHub says; undefined when GitHub shows no such repository. */
  getRepositoryVisibility(ref: RepoRef): Promise<"public" | "private" | "internal" | undefined>;
}

/**
 * The config files in effect for a repository, nearest first, all from default branches: its own
 * `.github/no-mistakes.yml`, then what its `_extends` names — or, without one, its owner's `.github`
 * repository's file (Probot's convention) — and so on, at most MAX_EXTENDS bases deep. A base that
 * is named but missing, a cycle or a chain too long is a problem; a missing `.github` repository is not.
 */
export async function readConfigLayers(
  github: ConfigFileSource,
  ref: RepoRef,
): Promise<{ layers: ConfigLayer[]; problems: ConfigProblem[] }> {
  const own = settleRepoConfigLayer(await github.readDefaultBranchFile(ref, REPO_CONFIG_PATH), REPO_CONFIG_PATH);
  const self: ConfigFileRef = { ...ref, path: REPO_CONFIG_PATH };
  const layers: ConfigLayer[] = [layer("repository", configFileSource(self), REPO_CONFIG_PATH, own, true)];
  const problems = [...own.problems];
  const seen = [self];
  // without an `_extends`, the owner's `.github` repository's file is the base (not under itself)
  let orgDefaults: ConfigFileRef | undefined =
    own.extends || ref.repo.toLowerCase() === ".github"
      ? undefined
      : { owner: ref.owner, repo: ".github", path: REPO_CONFIG_PATH };
  let naming = { file: REPO_CONFIG_PATH, layer: own, ref: self };
  for (;;) {
    let base = orgDefaults;
    orgDefaults = undefined;
    const named = naming.layer.extends;
    const problem = (message: string) =>
      problems.push({ file: naming.file, line: named?.line, key: "_extends", message });
    if (named) {
      base = parseExtendsTarget(named.target, naming.ref.owner);
      if (!base) {
        problem(`${JSON.stringify(named.target)} is not \`repo\`, \`owner/repo\` or \`owner/repo:path.yml\``);
        break;
      }
      if (seen.some((s) => sameFile(s, base!))) {
        problem(`a cycle (${[...seen, base].map(configFileLabel).join(" → ")}); it is not read again`);
        break;
      }
      if (layers.length > MAX_EXTENDS) {
        problem(`more than ${MAX_EXTENDS} bases in a row; ${configFileLabel(base)} and what it extends are not read`);
        break;
      }
    }
    if (!base) break;
    const text = await github.readDefaultBranchFile({ owner: base.owner, repo: base.repo }, base.path);
    if (text === undefined) {
      if (named) problem(`${configFileLabel(base)} was not found (or the app cannot read that repository)`);
      break;
    }
    const label = configFileLabel(base);
    const settled = settleRepoConfigLayer(text, label);
    problems.push(...settled.problems);
    const shown = layers.at(-1)!.shown && (await readableByAll(github, ref, base));
    layers.push(layer(named ? "extends" : "organisation", configFileSource(base), label, settled, shown));
    seen.push(base);
    naming = { file: label, layer: settled, ref: base };
  }
  return { layers, problems };
}

function layer(
  kind: ConfigLayer["kind"],
  source: string,
  file: string,
  settled: SettledLayer,
  shown: boolean,
): ConfigLayer {
  return { kind, source, file, settings: settled.settings, shown };
}

/** The PR's own repository, or one GitHub says is public; anything else (private, internal, unknown) is not. */
async function readableByAll(github: ConfigFileSource, ref: RepoRef, base: ConfigFileRef): Promise<boolean> {
  if (base.owner.toLowerCase() === ref.owner.toLowerCase() && base.repo.toLowerCase() === ref.repo.toLowerCase())
    return true;
  return (await github.getRepositoryVisibility({ owner: base.owner, repo: base.repo })) === "public";
}

function sameFile(a: ConfigFileRef, b: ConfigFileRef): boolean {
  return (
    a.owner.toLowerCase() === b.owner.toLowerCase() &&
    a.repo.toLowerCase() === b.repo.toLowerCase() &&
    a.path === b.path
  );
}
