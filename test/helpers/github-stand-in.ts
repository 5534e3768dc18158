import { execFileSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import nock from "nock";

/** The installation token the stand-in hands out; tests assert it never leaks. */
export const INSTALLATION_TOKEN = "ghs_TestInstallationToken0123456789abcdef";
export const APP_SLUG = "no-mistakes";
/** The App's OAuth client (its settings page's Client ID and a client secret): the code exchange checks both. */
export const OAUTH_CLIENT = {
  clientId: "Iv23liStandInClient0001",
  clientSecret: "standin0client0secret0123456789abcdef0123",
};

/** A person who signs in through the OAuth web flow, and what the App's installations let them reach. */
export interface OAuthPerson {
  login: string;
  id: number;
  /** Repository ids they reach through the App's installation (`installationId`). */
  repositories?: number[];
  /** Or, for several installations: each one's id and the repository ids they reach through it. */
  installations?: { id: number; repositories: number[] }[];
}
/** The App's bot user, as GET /users/no-mistakes[bot] answers: what every comment the app writes is authored by. */
export const BOT_USER = { id: 4242, login: `${APP_SLUG}[bot]`, type: "Bot" };

export interface RecordedRequest {
  method: string;
  path: string;
  body: any;
  /** Date.now() when the stand-in received it. */
  at: number;
  /** The Authorization header (kept for the App's own endpoints, /app/hook/…). */
  authorization?: string;
}

/** One attempt in the App's webhook delivery log, as GET /app/hook/deliveries lists it. */
export interface HookDeliveryAttempt {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

/** Where GitHub sends the App's webhooks: resolves = 2xx; throws = the app answered an error (`status`, else 500). */
export type WebhookTarget = (delivery: { id: string; name: string; payload: Record<string, any> }) => Promise<void>;

/**
 * A scheduled failure: "METHOD path-fragment" answers a 500 once; the object form answers `status`
 * with `message` and `headers` (e.g. 401, a 403 without a permission, a 403 secondary rate limit with
 * `retry-after`).
 */
export type StandInFailure =
  string | { request: string; status: number; message?: string; headers?: Record<string, string> };

export interface StoredReviewComment {
  id: number;
  node_id: string;
  review_id: number | null;
  path: string;
  line: number;
  start_line: number | null;
  side: string;
  body: string;
  in_reply_to_id?: number;
  commit_id: string;
  user: { id: number; login: string; type: string };
}

export interface StandInOptions {
  owner: string;
  repo: string;
  installationId: number;
  /** The bare repository holding the PR, used to decide which lines are on the PR's diff. */
  bareRepo: string;
  baseRef: string;
  /** `.github/no-mistakes.yml` on the default branch; undefined = 404. */
  configYaml?: string;
  /**
   * Files on other repositories' default branches ("owner/repo:path" → text), e.g. the owner's `.github`
   * defaults or an `_extends` base; any other is a 404. This repository's own config is `configYaml`.
   */
  repoFiles?: Record<string, string>;
  /**
   * What GET /repos/:owner/:repo says of another repository ("owner/repo" → visibility). Default: public
   * for a repository `repoFiles` holds a file of, else a 404.
   */
  repoVisibility?: Record<string, "public" | "private" | "internal">;
  /** Lines GitHub should refuse although they look commentable ("path:line"). */
  refuse?: string[];
  /** API root; GitHub Enterprise Server is `http(s)://host/api/v3`. Default https://api.github.com. */
  apiUrl?: string;
  /** Answer the next N requests matching "METHOD path-fragment" with a 500 (or as the object form says). */
  failOnce?: StandInFailure[];
  /**
   * A lost answer: the next request matching "METHOD path-fragment" is applied (the state changes, as
   * GitHub did the work) but answered with a 502, as when a proxy loses GitHub's response. Once per entry.
   */
  loseResponseOnce?: string[];
  /** Repository permission per login (default: none). */
  permissions?: Record<string, string>;
  /** What GET /pulls/:n answers: the PR as GitHub has it now (a function is asked at every request). */
  pulls?: Record<number, Record<string, unknown>> | ((n: number) => Record<string, unknown> | undefined);
  /**
   * Branches and pull requests by head (the learnings pull request): the files on each branch at the
   * start, for the contents routes that name a `ref`; the default branch is `baseRef`.
   */
  branchFiles?: Record<string, Record<string, string>>;
  /** The App's OAuth client the code exchange accepts (default OAUTH_CLIENT). */
  oauthClient?: { clientId: string; clientSecret: string };
  /** The App's owner as GET /app names it (absent: no `owner` in the answer; id 77 unless given). */
  appOwner?: { login: string; id?: number; type: "User" | "Organization" };
}

/**
 * GitHub's REST and GraphQL API as nock interceptors that keep state and record every request.
 * Review comments off the PR's diff get a 422, as on github.com; the diff is computed here with
 * plain `git diff` hunk ranges, independently of the app's own diff parser.
 */
export class GitHubStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly checkRuns = new Map<
    number,
    { id: number; head_sha: string; name: string; status: string; conclusion?: string; output?: any }
  >();
  readonly reviews: {
    id: number;
    commit_id: string;
    body: string;
    event: string;
    comments: any[];
    user: { id: number; login: string; type: string };
  }[] = [];
  readonly reviewComments: StoredReviewComment[] = [];
  /** `issue`: the PR it was posted on (absent: shown on every PR, as the tests' own comments are). */
  readonly issueComments: {
    id: number;
    body: string;
    user: { id: number; login: string; type: string };
    issue?: number;
  }[] = [];
  readonly resolvedThreads: string[] = [];
  readonly reactions: { commentId: number; content: string }[] = [];
  /** Reactions on review comments (POST by the app, or left by people through `reactToReviewComment`). */
  readonly reviewCommentReactions: {
    commentId: number;
    content: string;
    user: { id: number; login: string; type: string };
  }[] = [];
  /** PENDING reviews (seen by nobody but their author); the app only ever creates them to probe, then deletes them. */
  readonly pendingReviews: { id: number; pr: number; commit_id: string; body: string; comments: any[] }[] = [];
  /**
   * The App's webhook delivery log, oldest first: every attempt `deliver` made and every redelivery asked
   * for through POST /app/hook/deliveries/:id/attempts, with what the app answered (0 = not reachable).
   */
  readonly hookDeliveries: (HookDeliveryAttempt & { payload: Record<string, any> })[] = [];
  /** Where webhooks go; undefined = the app is down (the attempt fails as a refused connection). */
  webhookTarget: WebhookTarget | undefined;
  private readonly redeliveriesInFlight = new Set<Promise<unknown>>();
  /** Stand-ins made in this process: each hands out ids from its own range (GitHub's ids are unique, and tests share a database). */
  private static made = 0;
  private nextId = 1000 + GitHubStandIn.made++ * 10_000_000;
  /** Requests whose next answer is lost (see StandInOptions.loseResponseOnce); a test may add more at any time. */
  readonly loseResponses: string[];

  constructor(private readonly options: StandInOptions) {
    this.loseResponses = [...(options.loseResponseOnce ?? [])];
  }

  get configYaml(): string | undefined {
    return this.options.configYaml;
  }

  set configYaml(value: string | undefined) {
    this.options.configYaml = value;
  }

  /** Other repositories' files ("owner/repo:path" → text); a test may change them between deliveries. */
  get repoFiles(): Record<string, string> {
    return (this.options.repoFiles ??= {});
  }

  set repoFiles(value: Record<string, string>) {
    this.options.repoFiles = value;
  }

  /** Requests matching method and a path fragment. */
  sent(method: string, pathPart: string | RegExp): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof pathPart === "string" ? r.path.includes(pathPart) : pathPart.test(r.path)),
    );
  }

  install(): void {
    const { owner, repo, installationId } = this.options;
    const url = new URL(this.options.apiUrl ?? "https://api.github.com");
    const prefix = url.pathname.replace(/\/$/, "");
    const base = `${prefix}/repos/${owner}/${repo}`;
    const api = nock(url.origin).persist();
    const failures = [...(this.options.failOnce ?? [])];
    const losses = this.loseResponses;
    const matches = (f: string, method: string, uri: string) =>
      f === `${method} ${uri}` || (f.startsWith(`${method} `) && uri.includes(f.slice(method.length + 1)));
    /** A scheduled failure becomes a 500, as a GitHub outage would answer (or the status the test asked for). */
    const guard =
      (fn: (uri: string, body: any) => [number, unknown]) =>
      (uri: string, body: any): [number, unknown] | [number, unknown, Record<string, string>] => {
        try {
          const answer = fn(uri, body);
          const last = this.requests.at(-1);
          const lost =
            last && last.path === uri && answer[0] < 300 ? losses.findIndex((f) => matches(f, last.method, uri)) : -1;
          if (lost >= 0) {
            losses.splice(lost, 1);
            return [502, { message: "Bad Gateway" }];
          }
          return answer;
        } catch (error) {
          const { standInFailure, failure } = error as { standInFailure?: boolean; failure?: StandInFailure };
          if (!standInFailure) throw error;
          if (typeof failure === "object")
            return [
              failure.status,
              { message: failure.message ?? "Forbidden", documentation_url: "https://docs.github.com/rest" },
              failure.headers ?? {},
            ];
          return [500, { message: "Server Error" }];
        }
      };
    const record = (method: string) => (uri: string, body: any) => {
      this.requests.push({
        method,
        path: uri,
        body: typeof body === "string" && body.startsWith("{") ? JSON.parse(body) : body,
        at: Date.now(),
      });
      const failing = failures.findIndex((entry) =>
        matches(typeof entry === "string" ? entry : entry.request, method, uri),
      );
      if (failing >= 0) {
        const [failure] = failures.splice(failing, 1);
        throw Object.assign(new Error("stand-in failure"), { standInFailure: true, failure });
      }
      return this.requests.at(-1)!;
    };

    api.post(`${prefix}/app/installations/${installationId}/access_tokens`).reply(
      guard((uri: string, body: any) => {
        record("POST")(uri, body);
        return [
          201,
          {
            token: INSTALLATION_TOKEN,
            expires_at: new Date(Date.now() + 3_600_000).toISOString(),
            permissions: {},
            repository_selection: "all",
          },
        ];
      }),
    );
    const appOwner = this.options.appOwner;
    api.get(`${prefix}/app`).reply(function (uri: string) {
      const authorization = this.req.headers.authorization;
      return guard((u: string) => {
        const recorded = record("GET")(u, undefined);
        if (authorization) recorded.authorization = String(authorization);
        return [
          200,
          { id: 1, slug: APP_SLUG, name: "no-mistakes", ...(appOwner ? { owner: { id: 77, ...appOwner } } : {}) },
        ];
      })(uri, undefined);
    });

    // The App's webhook delivery log: only for the App itself (a JWT), as on GitHub.
    const asTheApp = (authorization: string) => /^bearer [\w-]+\.[\w-]+\.[\w-]+$/i.test(authorization);
    const standIn = this;
    api
      .get(`${prefix}/app/hook/deliveries`)
      .query(true)
      .reply(function (uri: string) {
        const authorization = String(this.req.headers.authorization ?? "");
        return guard((u: string) => {
          record("GET")(u, undefined).authorization = authorization;
          if (!asTheApp(authorization)) return [401, { message: "A JSON web token could not be decoded" }];
          const query = new URL(u, "https://api.github.com").searchParams;
          const perPage = Math.min(Number(query.get("per_page") ?? 30), 100);
          const cursor = query.get("cursor");
          const newestFirst = standIn.hookDeliveries.map(({ payload: _, ...listed }) => listed).reverse();
          const from = cursor ? newestFirst.findIndex((d) => d.id < Number(cursor.replace(/^c/, ""))) : 0;
          const page = from < 0 ? [] : newestFirst.slice(from, from + perPage);
          const more = from >= 0 && from + perPage < newestFirst.length;
          const next = `${url.origin}${prefix}/app/hook/deliveries?per_page=${perPage}&cursor=c${page.at(-1)?.id}`;
          return more ? ([200, page, { link: `<${next}>; rel="next"` }] as unknown as [number, unknown]) : [200, page];
        })(uri, undefined);
      });
    api.post(new RegExp(`^${prefix}/app/hook/deliveries/(\\d+)/attempts$`)).reply(function (uri: string, body: any) {
      const authorization = String(this.req.headers.authorization ?? "");
      return guard((u: string, b: any) => {
        record("POST")(u, b).authorization = authorization;
        if (!asTheApp(authorization)) return [401, { message: "A JSON web token could not be decoded" }];
        const original = standIn.hookDeliveries.find((d) => d.id === Number(/deliveries\/(\d+)\/attempts/.exec(u)![1]));
        if (!original) return [404, { message: "Not Found" }];
        // Accepted now, sent right after (as GitHub does).
        const sending: Promise<unknown> = new Promise((resolve) => setImmediate(resolve))
          .then(() => standIn.deliver(original.event, original.payload, original.guid, true))
          .finally(() => standIn.redeliveriesInFlight.delete(sending));
        standIn.redeliveriesInFlight.add(sending);
        return [202, {}];
      })(uri, body);
    });
    api.get(new RegExp(`^${base}/contents/\\.github(%2F|/)no-mistakes\\.yml`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const yaml = this.options.configYaml;
        if (yaml === undefined) return [404, { message: "Not Found" }];
        return [
          200,
          {
            type: "file",
            encoding: "base64",
            path: ".github/no-mistakes.yml",
            content: Buffer.from(yaml).toString("base64"),
          },
        ];
      }),
    );

    // Any other repository's file (the owner's `.github` config, an `_extends` base): `repoFiles`, else 404.
    // (no `?ref=`: a file on a named branch is the learnings routes' below)
    api.get(new RegExp(`^${prefix}/repos/([^/]+)/([^/]+)/contents/([^?]+)$`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const [, fileOwner, fileRepo, filePath] = new RegExp(`^${prefix}/repos/([^/]+)/([^/]+)/contents/([^?]+)`)
          .exec(uri)!
          .map((part) => decodeURIComponent(part));
        const text = this.options.repoFiles?.[`${fileOwner}/${fileRepo}:${filePath}`];
        if (text === undefined) return [404, { message: "Not Found" }];
        return [
          200,
          { type: "file", encoding: "base64", path: filePath, content: Buffer.from(text).toString("base64") },
        ];
      }),
    );

    // Another repository itself (whether it is private): repoVisibility, else public when it holds a repoFiles file.
    const self = `${this.options.owner}/${this.options.repo}`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    api.get(new RegExp(`^${prefix}/repos/(?!${self}$)([^/]+)/([^/?]+)$`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const [, owner, repo] = new RegExp(`^${prefix}/repos/([^/]+)/([^/?]+)$`)
          .exec(uri)!
          .map((part) => decodeURIComponent(part));
        const name = `${owner}/${repo}`;
        const listed = this.options.repoVisibility?.[name];
        const holdsFiles = Object.keys(this.options.repoFiles ?? {}).some((key) => key.startsWith(`${name}:`));
        const visibility = listed ?? (holdsFiles ? "public" : undefined);
        if (!visibility) return [404, { message: "Not Found" }];
        return [200, { full_name: name, private: visibility !== "public", visibility, default_branch: "main" }];
      }),
    );

    api.get(/\/users\/[^/]+%5Bbot%5D$|\/users\/[^/]+\[bot\]$/).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        return [200, BOT_USER];
      }),
    );
    api.get(new RegExp(`^${base}/collaborators/([^/]+)/permission$`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const login = decodeURIComponent(/collaborators\/([^/]+)\/permission/.exec(uri)![1]!);
        const permission = this.options.permissions?.[login];
        if (!permission) return [404, { message: "Not Found" }];
        const legacy = permission === "maintain" ? "write" : permission === "triage" ? "read" : permission;
        return [200, { permission: legacy, role_name: permission, user: { login } }];
      }),
    );
    api.post(new RegExp(`^${base}/issues/comments/(\\d+)/reactions$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        this.reactions.push({ commentId: Number(/comments\/(\d+)\/reactions/.exec(uri)![1]), content: r.body.content });
        return [201, { id: this.nextId++, content: r.body.content }];
      }),
    );
    api.get(new RegExp(`^${base}/pulls/(\\d+)$`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const n = Number(/pulls\/(\d+)$/.exec(uri)![1]);
        const pulls = this.options.pulls;
        const pull = typeof pulls === "function" ? pulls(n) : pulls?.[n];
        return pull ? [200, pull] : [404, { message: "Not Found" }];
      }),
    );

    // Check runs
    api.get(new RegExp(`^${base}/commits/([0-9a-f]{40})/check-runs`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const sha = /commits\/([0-9a-f]{40})/.exec(uri)![1];
        const runs = [...this.checkRuns.values()].filter((c) => c.head_sha === sha).reverse();
        return [200, { total_count: runs.length, check_runs: runs }];
      }),
    );
    api.post(`${base}/check-runs`).reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        const id = this.nextId++;
        this.checkRuns.set(id, {
          id,
          head_sha: r.body.head_sha,
          name: r.body.name,
          status: r.body.status ?? "queued",
          conclusion: r.body.conclusion,
          output: r.body.output,
        });
        return [201, this.checkRuns.get(id)];
      }),
    );
    api.patch(new RegExp(`^${base}/check-runs/(\\d+)$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("PATCH")(uri, body);
        const run = this.checkRuns.get(Number(/check-runs\/(\d+)/.exec(uri)![1]));
        if (!run) return [404, { message: "Not Found" }];
        Object.assign(run, {
          status: r.body.status ?? run.status,
          conclusion: r.body.conclusion ?? run.conclusion,
          output: r.body.output ?? run.output,
        });
        return [200, run];
      }),
    );

    // Reviews and review comments
    api.post(new RegExp(`^${base}/pulls/(\\d+)/reviews$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        const pr = Number(/pulls\/(\d+)/.exec(uri)![1]);
        const comments: any[] = r.body.comments ?? [];
        for (const c of comments) {
          const problem = this.offDiff(pr, r.body.commit_id, c);
          if (problem) return [422, { message: "Unprocessable Entity", errors: [problem], status: "422" }];
        }
        const id = this.nextId++;
        if (r.body.event === undefined) {
          // A PENDING review: seen by its author only; GitHub allows one per author and pull request.
          if (this.pendingReviews.some((p) => p.pr === pr))
            return [
              422,
              {
                message: "Unprocessable Entity",
                errors: ["User can only have one pending review per pull request"],
                status: "422",
              },
            ];
          this.pendingReviews.push({ id, pr, commit_id: r.body.commit_id, body: r.body.body ?? "", comments });
          return [200, { id, body: r.body.body ?? "", state: "PENDING", commit_id: r.body.commit_id, user: BOT_USER }];
        }
        this.reviews.push({
          id,
          commit_id: r.body.commit_id,
          body: r.body.body,
          event: r.body.event,
          comments,
          user: BOT_USER,
        });
        for (const c of comments) this.storeComment(c, id, r.body.commit_id);
        return [200, { id, body: r.body.body, state: "COMMENTED", commit_id: r.body.commit_id }];
      }),
    );
    api.get(new RegExp(`^${base}/pulls/(\\d+)/reviews(\\?.*)?$`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const pr = Number(/pulls\/(\d+)/.exec(uri)![1]);
        return [
          200,
          [
            ...this.reviews.map((r) => ({
              id: r.id,
              body: r.body,
              commit_id: r.commit_id,
              state: "COMMENTED",
              user: r.user,
            })),
            ...this.pendingReviews
              .filter((p) => p.pr === pr)
              .map((p) => ({ id: p.id, body: p.body, commit_id: p.commit_id, state: "PENDING", user: BOT_USER })),
          ],
        ];
      }),
    );
    api.delete(new RegExp(`^${base}/pulls/(\\d+)/reviews/(\\d+)$`)).reply(
      guard((uri: string) => {
        record("DELETE")(uri, undefined);
        const id = Number(/reviews\/(\d+)/.exec(uri)![1]);
        const at = this.pendingReviews.findIndex((p) => p.id === id);
        if (at < 0)
          return [
            422,
            { message: "Unprocessable Entity", errors: ["Can not delete a non-pending pull request review"] },
          ];
        const [gone] = this.pendingReviews.splice(at, 1);
        return [200, { id, state: "PENDING", body: gone!.body }];
      }),
    );
    api.get(new RegExp(`^${base}/pulls/(\\d+)/reviews/(\\d+)/comments`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const reviewId = Number(/reviews\/(\d+)/.exec(uri)![1]);
        return [200, this.reviewComments.filter((c) => c.review_id === reviewId)];
      }),
    );
    api.get(new RegExp(`^${base}/pulls/(\\d+)/comments(\\?.*)?$`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        return [200, this.reviewComments];
      }),
    );
    api.post(new RegExp(`^${base}/pulls/(\\d+)/comments$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        const pr = Number(/pulls\/(\d+)/.exec(uri)![1]);
        const problem = this.offDiff(pr, r.body.commit_id, r.body);
        if (problem) return [422, { message: "Validation Failed", errors: [problem], status: "422" }];
        return [201, this.storeComment(r.body, null, r.body.commit_id)];
      }),
    );
    api.post(new RegExp(`^${base}/pulls/(\\d+)/comments/(\\d+)/replies$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        const parent = this.reviewComments.find((c) => c.id === Number(/comments\/(\d+)\/replies/.exec(uri)![1]));
        if (!parent) return [404, { message: "Not Found" }];
        const reply = {
          ...parent,
          id: this.nextId++,
          node_id: `RC_${this.nextId}`,
          body: r.body.body,
          in_reply_to_id: parent.id,
          user: BOT_USER,
        };
        this.reviewComments.push(reply);
        return [201, reply];
      }),
    );

    api.post(new RegExp(`^${base}/pulls/comments/(\\d+)/reactions$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        const commentId = Number(/comments\/(\d+)\/reactions/.exec(uri)![1]);
        if (!this.reviewComments.some((c) => c.id === commentId)) return [404, { message: "Not Found" }];
        this.reviewCommentReactions.push({ commentId, content: r.body.content, user: BOT_USER });
        return [201, { id: this.nextId++, content: r.body.content, user: BOT_USER }];
      }),
    );
    api.get(new RegExp(`^${base}/pulls/comments/(\\d+)/reactions(\\?.*)?$`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const commentId = Number(/comments\/(\d+)\/reactions/.exec(uri)![1]);
        return [
          200,
          this.reviewCommentReactions
            .filter((r) => r.commentId === commentId)
            .map((r, i) => ({ id: i + 1, content: r.content, user: r.user })),
        ];
      }),
    );

    // Issue comments (summary, replies)
    api.get(new RegExp(`^${base}/issues/(\\d+)/comments`)).reply(
      guard((uri: string) => {
        record("GET")(uri, undefined);
        const issue = Number(/issues\/(\d+)\/comments/.exec(uri)![1]);
        return [200, this.issueComments.filter((c) => c.issue === undefined || c.issue === issue)];
      }),
    );
    api.post(new RegExp(`^${base}/issues/(\\d+)/comments$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        const comment = {
          id: this.nextId++,
          body: r.body.body,
          user: BOT_USER,
          issue: Number(/issues\/(\d+)\/comments/.exec(uri)![1]),
        };
        this.issueComments.push(comment);
        return [201, comment];
      }),
    );
    api.patch(new RegExp(`^${base}/issues/comments/(\\d+)$`)).reply(
      guard((uri: string, body: any) => {
        const r = record("PATCH")(uri, body);
        const comment = this.issueComments.find((c) => c.id === Number(/comments\/(\d+)/.exec(uri)![1]));
        if (!comment) return [404, { message: "Not Found" }];
        comment.body = r.body.body;
        return [200, comment];
      }),
    );

    this.installBranchRoutes(api, base, url, guard, record);
    this.installOAuthRoutes(api, url, prefix, guard, record);

    // GraphQL: review threads and resolving them
    api.post(prefix ? `${prefix.replace(/\/v3$/, "")}/graphql` : "/graphql").reply(
      guard((uri: string, body: any) => {
        const r = record("POST")(uri, body);
        const query: string = r.body.query;
        if (query.includes("resolveReviewThread")) {
          this.resolvedThreads.push(r.body.variables.id);
          return [200, { data: { resolveReviewThread: { thread: { id: r.body.variables.id } } } }];
        }
        if (query.includes("reviewThreads")) {
          const nodes = this.reviewComments
            .filter((c) => !c.in_reply_to_id)
            .map((c) => ({ id: `THREAD_${c.id}`, comments: { nodes: [{ id: c.node_id }] } }));
          return [
            200,
            {
              data: {
                repository: {
                  pullRequest: { reviewThreads: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } },
                },
              },
            },
          ];
        }
        return [400, { message: "unexpected query" }];
      }),
    );
  }

  // ---- Sign-in with GitHub (the OAuth web flow) and what a person's own token reads ----
  // Self-contained: the state below and `installOAuthRoutes`, after GitHub's documented web flow: the
  // browser opens /login/oauth/authorize on the web host and comes back to redirect_uri with `code` and
  // the same `state`; the code is exchanged once at POST /login/oauth/access_token (a wrong one answers
  // 200 with `error`, as GitHub does); the user token then reads /user and /user/installations.

  /** Who the next GET /login/oauth/authorize signs in (undefined: GitHub shows its sign-in form, no redirect). */
  private signingIn: OAuthPerson | undefined;
  /** Codes handed out by the authorize step: each is exchanged once. */
  readonly oauthCodes = new Map<
    string,
    { person: OAuthPerson; clientId: string; redirectUri?: string; used: boolean; expiresAt: number }
  >();
  /** User tokens issued (token → person); a revoked one is gone from here and answers 401. */
  readonly userTokens = new Map<string, OAuthPerson>();

  /** The person GitHub signs in at the next authorize step (as if they typed their password there). */
  signInAs(person: OAuthPerson): void {
    this.signingIn = person;
  }

  /** Revokes every token issued to `login` (the person revoked the App's authorization): those calls then answer 401. */
  revokeUserTokens(login: string): void {
    for (const [token, person] of this.userTokens) if (person.login === login) this.userTokens.delete(token);
  }

  /** The web host's origin: https://github.com for api.github.com, else the Enterprise server's own origin. */
  get webOrigin(): string {
    const api = new URL(this.options.apiUrl ?? "https://api.github.com");
    return api.hostname === "api.github.com" ? "https://github.com" : api.origin;
  }

  private installOAuthRoutes(
    api: nock.Scope,
    url: URL,
    prefix: string,
    guard: (fn: (uri: string, body: any) => [number, unknown]) => (uri: string, body: any) => any,
    record: (method: string) => (uri: string, body: any) => RecordedRequest,
  ): void {
    const standIn = this;
    const client = this.options.oauthClient ?? OAUTH_CLIENT;
    /** A recorded route (Authorization kept) that scheduled failures apply to, answering with its headers. */
    const route = (
      method: string,
      fn: (uri: string, body: any, headers: Record<string, string | undefined>) => readonly unknown[],
    ) =>
      function (this: { req: { headers: Record<string, string | undefined> } }, uri: string, body: any) {
        const headers = this.req.headers;
        return guard((u: string, b: any) => {
          const recorded = record(method)(u, b);
          if (headers.authorization) recorded.authorization = headers.authorization;
          return fn(u, b, headers) as [number, unknown];
        })(uri, body);
      };
    const web = nock(this.webOrigin).persist();
    const random = (prefix: string, n: number) =>
      prefix +
      Array.from(randomBytes(n), (b) => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[b % 62]).join(
        "",
      );

    web
      .get("/login/oauth/authorize")
      .query(true)
      .reply(
        route("GET", (uri) => {
          const query = new URL(uri, standIn.webOrigin).searchParams;
          if (query.get("client_id") !== client.clientId)
            return [404, "<html><body>The client_id is not a registered application.</body></html>"];
          const person = standIn.signingIn;
          if (!person) return [200, "<html><body><form>Sign in to GitHub</form></body></html>"];
          const redirectUri = query.get("redirect_uri");
          if (!redirectUri) return [400, "<html><body>redirect_uri is required by this stand-in</body></html>"];
          const code = random("", 20);
          standIn.oauthCodes.set(code, {
            person,
            clientId: client.clientId,
            redirectUri,
            used: false,
            expiresAt: Date.now() + 600_000,
          });
          const back = new URL(redirectUri);
          back.searchParams.set("code", code);
          const state = query.get("state");
          if (state !== null) back.searchParams.set("state", state);
          return [302, "", { location: back.toString() }];
        }),
      );

    web
      .post("/login/oauth/access_token")
      .query(true)
      .reply(
        route("POST", (uri, body, headers) => {
          const params = new URL(uri, standIn.webOrigin).searchParams;
          const given =
            typeof body === "string" && !body.startsWith("{")
              ? new URLSearchParams(body)
              : new URLSearchParams(
                  (typeof body === "string" ? JSON.parse(body) : (body ?? {})) as Record<string, string>,
                );
          const param = (name: string) => given.get(name) ?? params.get(name) ?? undefined;
          const json = /application\/json/.test(String(headers.accept ?? ""));
          const answer = (fields: Record<string, string | number>) =>
            json
              ? ([200, fields, { "content-type": "application/json; charset=utf-8" }] as const)
              : ([
                  200,
                  new URLSearchParams(
                    Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)]),
                  ).toString(),
                  { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
                ] as const);
          const docs =
            "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";
          if (param("client_id") !== client.clientId || param("client_secret") !== client.clientSecret)
            return answer({
              error: "incorrect_client_credentials",
              error_description: "The client_id and/or client_secret passed are incorrect.",
              error_uri: `${docs}/#incorrect-client-credentials`,
            });
          const code = param("code");
          const issued = code ? standIn.oauthCodes.get(code) : undefined;
          if (!issued || issued.used || issued.expiresAt < Date.now())
            return answer({
              error: "bad_verification_code",
              error_description: "The code passed is incorrect or expired.",
              error_uri: `${docs}/#bad-verification-code`,
            });
          issued.used = true;
          const redirectUri = param("redirect_uri");
          if (redirectUri !== undefined && redirectUri !== issued.redirectUri)
            return answer({
              error: "redirect_uri_mismatch",
              error_description: "The redirect_uri MUST match the registered callback URL for this application.",
              error_uri: `${docs}/#redirect-uri-mismatch2`,
            });
          const token = random("ghu_", 36);
          standIn.userTokens.set(token, issued.person);
          return answer({
            access_token: token,
            expires_in: 28_800,
            refresh_token: random("ghr_", 76),
            refresh_token_expires_in: 15_897_600,
            token_type: "bearer",
            scope: "",
          });
        }),
      );

    /** The person a request's `Authorization: Bearer|token <user token>` names, or undefined (a 401). */
    const personOf = (authorization: string) => {
      const match = /^(?:bearer|token)\s+(\S+)$/i.exec(authorization);
      return match ? standIn.userTokens.get(match[1]!) : undefined;
    };
    const installationsOf = (person: OAuthPerson) =>
      person.installations ?? [{ id: standIn.options.installationId, repositories: person.repositories ?? [] }];
    const badCredentials = [401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }];
    /** One page of `items` under `key` with GitHub's `total_count`, and a Link to the next page when there is one. */
    const page = (uri: string, key: string, items: unknown[]) => {
      const query = new URL(uri, url.origin).searchParams;
      const perPage = Math.min(Math.max(Number(query.get("per_page") ?? 30), 1), 100);
      const n = Math.max(Number(query.get("page") ?? 1), 1);
      const slice = items.slice((n - 1) * perPage, n * perPage);
      const path = uri.split("?")[0];
      const headers: Record<string, string> =
        n * perPage < items.length
          ? { link: `<${url.origin}${path}?per_page=${perPage}&page=${n + 1}>; rel="next"` }
          : {};
      return [200, { total_count: items.length, [key]: slice }, headers];
    };

    api.get(`${prefix}/user`).reply(
      route("GET", (uri, _body, headers) => {
        const person = personOf(headers.authorization ?? "");
        if (!person) return badCredentials as [number, unknown];
        return [200, { login: person.login, id: person.id, type: "User", site_admin: false }];
      }),
    );
    api
      .get(`${prefix}/user/installations`)
      .query(true)
      .reply(
        route("GET", (uri, _body, headers) => {
          const person = personOf(headers.authorization ?? "");
          if (!person) return badCredentials as [number, unknown];
          const installations = installationsOf(person).map((i) => ({
            id: i.id,
            app_id: 1,
            app_slug: APP_SLUG,
            target_type: "Organization",
            account: { login: standIn.options.owner, type: "Organization" },
          }));
          return page(uri, "installations", installations) as [number, unknown];
        }),
      );
    api.get(new RegExp(`^${prefix}/user/installations/(\\d+)/repositories(\\?.*)?$`)).reply(
      route("GET", (uri, _body, headers) => {
        const person = personOf(headers.authorization ?? "");
        if (!person) return badCredentials as [number, unknown];
        const id = Number(/installations\/(\d+)\/repositories/.exec(uri)![1]);
        const installation = installationsOf(person).find((i) => i.id === id);
        if (!installation) return [404, { message: "Not Found" }];
        const repositories = installation.repositories.map((repoId) => ({
          id: repoId,
          name: `repo-${repoId}`,
          full_name: `${standIn.options.owner}/repo-${repoId}`,
          private: true,
        }));
        return page(uri, "repositories", repositories) as [number, unknown];
      }),
    );
  }

  // ---- Branches, files on a branch, pull requests by head (the learnings pull request) ----
  // Self-contained: the state below and `installBranchRoutes`. The contents routes answer only requests
  // that name a branch (`?ref=` on GET, `branch` on PUT; a PUT without one is recorded and refused).

  /** Branch → head commit. The default branch (`baseRef`) starts at the bare repository's head of it. */
  readonly branchHeads = new Map<string, string>();
  /** Commit → the files at it (path → text), as the contents API sees them. */
  readonly branchCommits = new Map<string, Map<string, string>>();
  /** Pull requests opened through POST /pulls. */
  readonly createdPulls: {
    number: number;
    head: string;
    base: string;
    title: string;
    body: string;
    state: string;
    html_url: string;
  }[] = [];
  /** Every contents PUT, with the branch it targeted (GitHub's default branch when the request named none). */
  readonly filePuts: { branch: string; path: string; text: string; sha?: string; message: string }[] = [];

  /** The web address of the repository, as `html_url` gives it (the Enterprise host for an /api/v3 root). */
  get repoHtmlUrl(): string {
    const api = new URL(this.options.apiUrl ?? "https://api.github.com");
    const web = api.hostname === "api.github.com" ? "https://github.com" : api.origin;
    return `${web}/${this.options.owner}/${this.options.repo}`;
  }

  /** The text of `path` on `branch` now (undefined: no such branch or file). */
  branchFile(branch: string, path: string): string | undefined {
    this.seedBranches();
    const head = this.branchHeads.get(branch);
    return head ? this.branchCommits.get(head)?.get(path) : undefined;
  }

  private seedBranches(): void {
    if (this.branchHeads.size > 0) return;
    const { baseRef, bareRepo, branchFiles = {} } = this.options;
    let defaultHead: string;
    try {
      defaultHead = execFileSync("git", ["-C", bareRepo, "rev-parse", `refs/heads/${baseRef}`], {
        encoding: "utf8",
      }).trim();
    } catch {
      defaultHead = createHash("sha1").update(`default ${baseRef}`).digest("hex");
    }
    const names = new Set([baseRef, ...Object.keys(branchFiles)]);
    for (const name of names) {
      const files = new Map(Object.entries(branchFiles[name] ?? {}));
      const sha = name === baseRef ? defaultHead : createHash("sha1").update(`branch ${name}`).digest("hex");
      this.branchHeads.set(name, sha);
      this.branchCommits.set(sha, files);
    }
  }

  private installBranchRoutes(
    api: nock.Scope,
    base: string,
    url: URL,
    guard: (fn: (uri: string, body: any) => [number, unknown]) => (uri: string, body: any) => any,
    record: (method: string) => (uri: string, body: any) => RecordedRequest,
  ): void {
    const { owner, repo, baseRef } = this.options;
    const blobSha = (text: string) =>
      createHash("sha1")
        .update(`blob ${Buffer.byteLength(text)}\0${text}`)
        .digest("hex");
    const notFound: [number, unknown] = [404, { message: "Not Found" }];
    const pullJson = (p: (typeof this.createdPulls)[number]) => ({
      ...p,
      head: { ref: p.head, label: `${owner}:${p.head}`, repo: { full_name: `${owner}/${repo}` } },
      base: { ref: p.base },
    });

    api.get(new RegExp(`^${base}$`)).reply(
      guard((uri) => {
        record("GET")(uri, undefined);
        return [200, { full_name: `${owner}/${repo}`, default_branch: baseRef, html_url: this.repoHtmlUrl }];
      }),
    );
    api.get(new RegExp(`^${base}/git/ref/(.+)$`)).reply(
      guard((uri) => {
        record("GET")(uri, undefined);
        this.seedBranches();
        const name = decodeURIComponent(/git\/ref\/(.+)$/.exec(uri)![1]!).replace(/^heads\//, "");
        const sha = this.branchHeads.get(name);
        return sha ? [200, { ref: `refs/heads/${name}`, object: { sha, type: "commit" } }] : notFound;
      }),
    );
    api.post(`${base}/git/refs`).reply(
      guard((uri, body) => {
        const r = record("POST")(uri, body);
        this.seedBranches();
        const name = String(r.body.ref).replace(/^refs\/heads\//, "");
        if (this.branchHeads.has(name)) return [422, { message: "Reference already exists" }];
        if (!this.branchCommits.has(r.body.sha)) return [422, { message: "Object does not exist" }];
        this.branchHeads.set(name, r.body.sha);
        return [201, { ref: `refs/heads/${name}`, object: { sha: r.body.sha, type: "commit" } }];
      }),
    );
    api.patch(new RegExp(`^${base}/git/refs/(.+)$`)).reply(
      guard((uri, body) => {
        const r = record("PATCH")(uri, body);
        this.seedBranches();
        const name = decodeURIComponent(/git\/refs\/(.+)$/.exec(uri)![1]!).replace(/^heads\//, "");
        if (!this.branchHeads.has(name)) return [422, { message: "Reference does not exist" }];
        if (!this.branchCommits.has(r.body.sha)) return [422, { message: "Object does not exist" }];
        if (name === baseRef && r.body.force)
          return [422, { message: "the stand-in refuses to force the default branch" }];
        this.branchHeads.set(name, r.body.sha);
        return [200, { ref: `refs/heads/${name}`, object: { sha: r.body.sha, type: "commit" } }];
      }),
    );
    api.get(new RegExp(`^${base}/contents/([^?]+)\\?(.*&)?ref=([^&]+)`)).reply(
      guard((uri) => {
        record("GET")(uri, undefined);
        this.seedBranches();
        const path = decodeURIComponent(/contents\/([^?]+)/.exec(uri)![1]!);
        const branch = decodeURIComponent(/[?&]ref=([^&]+)/.exec(uri)![1]!);
        const text = this.branchFile(branch, path);
        if (text === undefined) return notFound;
        const content = Buffer.from(text).toString("base64");
        return [200, { type: "file", encoding: "base64", path, sha: blobSha(text), content }];
      }),
    );
    api.put(new RegExp(`^${base}/contents/([^?]+)$`)).reply(
      guard((uri, body) => {
        const r = record("PUT")(uri, body);
        this.seedBranches();
        const path = decodeURIComponent(/contents\/([^?]+)/.exec(uri)![1]!);
        const branch: string = r.body.branch ?? baseRef;
        const text = Buffer.from(String(r.body.content ?? ""), "base64").toString("utf8");
        this.filePuts.push({ branch, path, text, sha: r.body.sha, message: r.body.message });
        if (r.body.branch === undefined) return [422, { message: "the stand-in wants every PUT to name its branch" }];
        const head = this.branchHeads.get(branch);
        if (!head) return [404, { message: `Branch ${branch} not found` }];
        const files = this.branchCommits.get(head)!;
        const current = files.get(path);
        if (current !== undefined && r.body.sha === undefined)
          return [422, { message: 'Invalid request.\n\n"sha" wasn\'t supplied.' }];
        if (current !== undefined && r.body.sha !== blobSha(current))
          return [409, { message: `${path} does not match ${r.body.sha}` }];
        const commit = createHash("sha1").update(`${head} ${path} ${text} ${this.nextId++}`).digest("hex");
        this.branchCommits.set(commit, new Map([...files, [path, text]]));
        this.branchHeads.set(branch, commit);
        return [current === undefined ? 201 : 200, { content: { path, sha: blobSha(text) }, commit: { sha: commit } }];
      }),
    );
    api.get(new RegExp(`^${base}/pulls\\?(.*)$`)).reply(
      guard((uri) => {
        record("GET")(uri, undefined);
        const query = new URL(uri, url.origin).searchParams;
        const head = query.get("head");
        const state = query.get("state") ?? "open";
        const listed = this.createdPulls.filter(
          (p) => (head === null || `${owner}:${p.head}` === head) && (state === "all" || p.state === state),
        );
        return [200, listed.map(pullJson)];
      }),
    );
    api.post(`${base}/pulls`).reply(
      guard((uri, body) => {
        const r = record("POST")(uri, body);
        this.seedBranches();
        if (!this.branchHeads.has(r.body.head)) return [422, { message: "Validation Failed", errors: ["head"] }];
        if (this.createdPulls.some((p) => p.head === r.body.head && p.base === r.body.base && p.state === "open"))
          return [422, { message: "Validation Failed", errors: ["A pull request already exists"] }];
        const number = 7000 + this.createdPulls.length;
        const pull = {
          number,
          head: r.body.head,
          base: r.body.base,
          title: r.body.title,
          body: r.body.body ?? "",
          state: "open",
          html_url: `${this.repoHtmlUrl}/pull/${number}`,
        };
        this.createdPulls.push(pull);
        return [201, pullJson(pull)];
      }),
    );
    api.patch(new RegExp(`^${base}/pulls/(\\d+)$`)).reply(
      guard((uri, body) => {
        const r = record("PATCH")(uri, body);
        const pull = this.createdPulls.find((p) => p.number === Number(/pulls\/(\d+)$/.exec(uri)![1]));
        if (!pull) return notFound;
        Object.assign(pull, r.body.body !== undefined ? { body: r.body.body } : {});
        Object.assign(pull, r.body.state !== undefined ? { state: r.body.state } : {});
        return [200, pullJson(pull)];
      }),
    );
  }

  /**
   * GitHub sends a webhook to the App: one attempt in the delivery log, failed when the app is down
   * (no `webhookTarget`) or answers an error. A redelivery keeps the delivery's guid.
   */
  async deliver(
    name: string,
    payload: Record<string, any>,
    guid: string = randomUUID(),
    redelivery = false,
  ): Promise<HookDeliveryAttempt> {
    const started = Date.now();
    let statusCode: number;
    let status: string;
    if (!this.webhookTarget) {
      statusCode = 0;
      status = "failed to connect to host";
    } else {
      try {
        await this.webhookTarget({ id: guid, name, payload });
        statusCode = 200;
        status = "OK";
      } catch (error) {
        const answered = (error as { status?: unknown }).status;
        statusCode = typeof answered === "number" ? answered : 500;
        status = "Invalid HTTP Response: " + statusCode;
      }
    }
    const attempt = {
      id: this.nextId++,
      guid,
      delivered_at: new Date(started).toISOString(),
      redelivery,
      duration: (Date.now() - started) / 1000,
      status,
      status_code: statusCode,
      event: name,
      action: typeof payload.action === "string" ? payload.action : null,
      installation_id: payload.installation?.id ?? null,
      repository_id: payload.repository?.id ?? null,
      payload,
    };
    this.hookDeliveries.push(attempt);
    const { payload: _, ...listed } = attempt;
    return listed;
  }

  /** Resolves once every redelivery asked for so far has been attempted (GitHub answers 202 and sends it after). */
  async redeliveriesSettled(): Promise<void> {
    while (this.redeliveriesInFlight.size > 0) await Promise.all([...this.redeliveriesInFlight]);
  }

  /** A person's review with an inline comment (e.g. the PR author's, carrying a forged marker), as GitHub would store it. */
  humanReview(
    login: string,
    commitId: string,
    body: string,
    comment?: { path: string; line: number; body: string },
  ): { reviewId: number; commentId?: number } {
    const user = { id: 9000 + this.nextId, login, type: "User" };
    const reviewId = this.nextId++;
    this.reviews.push({
      id: reviewId,
      commit_id: commitId,
      body,
      event: "COMMENT",
      comments: comment ? [comment] : [],
      user,
    });
    const stored = comment ? this.storeComment({ ...comment, side: "RIGHT" }, reviewId, commitId, user) : undefined;
    return { reviewId, commentId: stored?.id };
  }

  /**
   * A person's reply in a review thread (GitHub keeps `in_reply_to_id` on the thread's first comment),
   * as GitHub would store it; the test then delivers its pull_request_review_comment webhook.
   */
  humanReviewReply(
    user: { login: string; id?: number; type?: string },
    inReplyTo: number,
    body: string,
  ): StoredReviewComment {
    const parent = this.reviewComments.find((c) => c.id === inReplyTo);
    if (!parent) throw new Error(`no review comment ${inReplyTo}`);
    const id = this.nextId++;
    const stored: StoredReviewComment = {
      ...parent,
      id,
      node_id: `RC_${id}`,
      body,
      in_reply_to_id: parent.in_reply_to_id ?? parent.id,
      user: { id: user.id ?? 9000 + id, login: user.login, type: user.type ?? "User" },
    };
    this.reviewComments.push(stored);
    return stored;
  }

  /** A person's reaction on a review comment (GitHub sends no webhook for it). */
  reactToReviewComment(user: { login: string; id?: number }, commentId: number, content: string): void {
    this.reviewCommentReactions.push({
      commentId,
      content,
      user: { id: user.id ?? 9500, login: user.login, type: "User" },
    });
  }

  /** A person's comment on the PR's conversation. */
  humanIssueComment(login: string, body: string): number {
    const id = this.nextId++;
    this.issueComments.push({ id, body, user: { id: 9000 + id, login, type: "User" } });
    return id;
  }

  private storeComment(c: any, reviewId: number | null, commitId: string, user = BOT_USER): StoredReviewComment {
    const id = this.nextId++;
    const stored: StoredReviewComment = {
      id,
      node_id: `RC_${id}`,
      review_id: reviewId,
      path: c.path,
      line: c.line,
      start_line: c.start_line ?? null,
      side: c.side,
      body: c.body,
      commit_id: commitId,
      user,
    };
    this.reviewComments.push(stored);
    return stored;
  }

  /**
   * GitHub's rule: a comment's lines must sit in one hunk of the PR's diff (base...head, new side) as
   * GitHub computes it — ONE diff of the whole range with rename detection, not a diff per file (which
   * would call a renamed file new and every line of it commentable). Parsed here with a few regexes,
   * independently of the app's diff parser.
   */
  private offDiff(
    pr: number,
    headSha: string,
    c: { path: string; line: number; start_line?: number },
  ): string | undefined {
    if (this.options.refuse?.includes(`${c.path}:${c.line}`)) return `Line could not be resolved (${c.path}:${c.line})`;
    const ranges = this.commentableRanges(headSha).get(c.path) ?? [];
    const first = c.start_line ?? c.line;
    const inOne = ranges.some(([lo, hi]) => first >= lo && c.line <= hi);
    void pr;
    return inOne ? undefined : `pull_request_review_thread.line must be part of the diff (${c.path}:${c.line})`;
  }

  /** New path → the new-side line ranges of its hunks, from the whole PR diff. */
  private commentableRanges(headSha: string): Map<string, (readonly [number, number])[]> {
    const diff = execFileSync(
      "git",
      [
        "-C",
        this.options.bareRepo,
        "-c",
        "core.quotePath=false",
        "diff",
        "-M",
        "-U3",
        "--no-color",
        "--no-ext-diff",
        `refs/heads/${this.options.baseRef}...${headSha}`,
      ],
      { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
    );
    const files = new Map<string, (readonly [number, number])[]>();
    for (const section of diff.split(/^(?=diff --git )/m)) {
      if (!section.startsWith("diff --git ")) continue;
      const newPath = /^\+\+\+ b\/(.*?)\t?$/m.exec(section)?.[1] ?? /^rename to (.*)$/m.exec(section)?.[1];
      if (newPath === undefined) continue; // deleted (+++ /dev/null): nothing on the new side
      const ranges = [...section.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)].map((m) => {
        const start = Number(m[1]);
        return [start, start + Number(m[2] ?? 1) - 1] as const;
      });
      files.set(newPath, ranges);
    }
    return files;
  }
}
