import examples from "@octokit/webhooks-examples";

type Example = { name: string; examples: Record<string, unknown>[] };

/** A deep copy of a real webhook payload from @octokit/webhooks-examples (the first with that action). */
export function examplePayload<T = Record<string, any>>(event: string, action: string): T {
  const list = (Array.isArray(examples) ? examples : (examples as { default: Example[] }).default) as Example[];
  const found = list.find((e) => e.name === event)?.examples.find((e) => e.action === action);
  if (!found) throw new Error(`no example payload for ${event}.${action}`);
  return structuredClone(found) as T;
}

export interface PrShape {
  action: string;
  number: number;
  title?: string;
  body?: string;
  baseRef?: string;
  baseSha: string;
  headRef: string;
  headSha: string;
  cloneUrl: string;
  repoId?: number;
  fullName?: string;
  installationId?: number;
  draft?: boolean;
  sender?: { login: string; type: "User" | "Bot" };
  /** A fork; null = the head repository was deleted (GitHub then sends `head.repo: null`). */
  headRepo?: { fullName: string; cloneUrl: string } | null;
  maintainerCanModify?: boolean;
  /** pull_request.updated_at (GitHub sets it on every push). */
  updatedAt?: string;
  /** synchronize: the head before the push (default: the base). */
  before?: string;
  /** The PR's label names (default: none). */
  labels?: string[];
  /** labeled / unlabeled: the label added or removed. */
  label?: string;
  /** The PR's author (default: the example's). */
  author?: string;
  /** The author's account type (default: the example's, `User`); an app's PR is by a `Bot`. */
  authorType?: "User" | "Bot";
  /**
   * edited: GitHub's `changes`, each changed field's old value, e.g. `{ title: { from: "WIP: x" } }`
   * (default: none). @octokit/webhooks-examples has no pull_request.edited delivery: an edited payload is
   * its opened one with this action and `changes`, as GitHub's webhook schema describes them.
   */
  changes?: Record<string, unknown>;
  /** closed: merged by this login (GitHub's `merged`, `merged_at`, `merged_by`); default: closed unmerged. */
  mergedBy?: string;
}

/** A real pull_request payload, pointed at our test repository and commits. */
export function pullRequestPayload(shape: PrShape): Record<string, any> {
  const base =
    shape.action === "synchronize" ||
    shape.action === "opened" ||
    shape.action === "closed" ||
    shape.action === "reopened" ||
    shape.action === "ready_for_review" ||
    shape.action === "labeled" ||
    shape.action === "unlabeled"
      ? examplePayload("pull_request", shape.action)
      : examplePayload("pull_request", "opened");
  const fullName = shape.fullName ?? "octo-org/widgets";
  const [owner, name] = fullName.split("/") as [string, string];
  const repo = {
    ...base.repository,
    id: shape.repoId ?? 4242,
    name,
    full_name: fullName,
    clone_url: shape.cloneUrl,
    owner: { ...base.repository.owner, login: owner },
  };
  const pr = base.pull_request;
  pr.number = shape.number;
  pr.title = shape.title ?? `Change ${shape.number}`;
  pr.body = shape.body ?? "Please review.";
  pr.draft = shape.draft ?? false;
  pr.state = shape.action === "closed" ? "closed" : "open";
  pr.base = { ...pr.base, ref: shape.baseRef ?? "main", sha: shape.baseSha, repo };
  const headRepo =
    shape.headRepo === null
      ? null
      : shape.headRepo
        ? { ...repo, id: 777, full_name: shape.headRepo.fullName, clone_url: shape.headRepo.cloneUrl }
        : repo;
  pr.head = { ...pr.head, ref: shape.headRef, sha: shape.headSha, repo: headRepo };
  pr.maintainer_can_modify = shape.maintainerCanModify ?? false;
  if (shape.updatedAt) pr.updated_at = shape.updatedAt;
  const exampleLabel = pr.labels?.[0] ?? base.label;
  pr.labels = (shape.labels ?? []).map((name, i) => ({ ...exampleLabel, id: 5000 + i, name }));
  if (shape.author) pr.user = { ...pr.user, login: shape.author };
  if (shape.authorType) pr.user = { ...pr.user, type: shape.authorType };
  if (shape.action === "closed" && shape.mergedBy !== undefined) {
    pr.merged = true;
    pr.closed_at = pr.merged_at = new Date().toISOString();
    pr.merged_by = { ...pr.user, login: shape.mergedBy };
  }
  return {
    ...base,
    action: shape.action,
    number: shape.number,
    pull_request: pr,
    repository: repo,
    installation: { id: shape.installationId ?? 99, node_id: "inst" },
    sender: { ...base.sender, login: shape.sender?.login ?? "octocat", type: shape.sender?.type ?? "User" },
    ...(shape.action === "synchronize" ? { after: shape.headSha, before: shape.before ?? shape.baseSha } : {}),
    ...(shape.label !== undefined ? { label: { ...base.label, name: shape.label } } : {}),
    ...(shape.action === "edited" ? { changes: shape.changes ?? {} } : {}),
  };
}
