import { REPO_CONFIG_PATH } from "./repo-config.js";

/** A config file in some repository, read from its default branch. */
export interface ConfigFileRef {
  owner: string;
  repo: string;
  path: string;
}

// Probot's forms: `repo`, `owner/repo`, `owner/repo:path/to/file.yml`
const TARGET = /^(?:([a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38})\/)?([-_.\w]+)(?::([-_./\w]+\.ya?ml))?$/i;

/** The file an `_extends` names; a bare repository name is the naming file's owner's. Undefined: not a form it takes. */
export function parseExtendsTarget(target: string, owner: string): ConfigFileRef | undefined {
  const match = TARGET.exec(target.trim());
  if (!match) return undefined;
  const [, targetOwner, repo, path] = match as unknown as [string, string | undefined, string, string | undefined];
  if (repo === "." || repo === "..") return undefined;
  if (path?.split("/").some((part) => part === "" || part === "." || part === "..")) return undefined;
  return { owner: targetOwner ?? owner, repo, path: path ?? REPO_CONFIG_PATH };
}

/** How problems name another repository's file: `acme/.github:.github/no-mistakes.yml`. */
export function configFileLabel(file: ConfigFileRef): string {
  return `${file.owner}/${file.repo}:${file.path}`;
}

/** How provenance names a layer: the repository (`acme/.github`), with the path when it is not the usual one. */
export function configFileSource(file: ConfigFileRef): string {
  return file.path === REPO_CONFIG_PATH ? `${file.owner}/${file.repo}` : configFileLabel(file);
}
