import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { GitHubOAuthRoutes } from "./github-oauth-routes.js";

/** The App's bot user: the author of everything the app writes. */
const BOT_USER = { id: 4242, login: "no-mistakes[bot]", type: "Bot" };

/**
 * GitHub's REST/GraphQL API as a real HTTP server on 127.0.0.1, for processes nock cannot reach.
 * Served under /api/v3 (GitHub Enterprise Server layout: the app is pointed at it with
 * GHE_HOST=127.0.0.1:<port> GHE_PROTOCOL=http). Keeps just enough state for a review to complete.
 */
export class GitHubHttpStandIn {
  readonly counts = new Map<string, number>();
  readonly unmatched: string[] = [];
  /** Reviews posted, with when they arrived (performance.now() of this process). */
  readonly reviews: { pr: number; id: number; commitId: string; body: string; at: number; comments: number }[] = [];
  private readonly reviewComments = new Map<
    number,
    {
      id: number;
      node_id: string;
      pull_request_review_id: number;
      body: string;
      path: string;
      line: number | null;
      user: typeof BOT_USER;
    }[]
  >();
  readonly checkRuns = new Map<
    number,
    { id: number; head_sha: string; name: string; status: string; conclusion?: string }
  >();
  private readonly issueComments = new Map<
    number,
    { id: number; body: string; user: { id: number; login: string; type: string } }[]
  >();
  private nextId = 1000;
  private server?: Server;
  /** Sign-in with GitHub and what a person's token reads (the run view's), when set: see github-oauth-routes.ts. */
  oauth?: GitHubOAuthRoutes;
  port = 0;

  async start(): Promise<number> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The web host's origin (GitHub Enterprise Server layout: the same host as the API). */
  get webOrigin(): string {
    return `http://${this.host}`;
  }

  get apiUrl(): string {
    return `http://${this.host}/api/v3`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      if (this.oauth?.handle(req, raw, res)) return;
      let body: any = undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      const [status, data] = this.route(req.method ?? "GET", (req.url ?? "/").split("?")[0]!, body);
      const text = JSON.stringify(data);
      res.writeHead(status, {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
    });
  }

  private count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  private route(method: string, path: string, body: any): [number, unknown] {
    let m: RegExpExecArray | null;
    const p = path.replace(/^\/api\/v3/, "");
    if (method === "POST" && path === "/api/graphql") {
      this.count("graphql");
      const query: string = body?.query ?? "";
      if (query.includes("resolveReviewThread"))
        return [200, { data: { resolveReviewThread: { thread: { id: body.variables?.id } } } }];
      return [
        200,
        {
          data: {
            repository: {
              pullRequest: { reviewThreads: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } },
            },
          },
        },
      ];
    }
    if (method === "POST" && /^\/app\/installations\/\d+\/access_tokens$/.test(p)) {
      this.count("access_token");
      return [
        201,
        {
          token: "ghs_BenchInstallationToken0123456789abcdef",
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
          permissions: {},
          repository_selection: "all",
        },
      ];
    }
    // The App's delivery log, read by the failed-delivery sweep: every delivery arrived.
    if (method === "GET" && p === "/app/hook/deliveries") return [200, []];
    if (method === "GET" && p === "/app") return [200, { id: 1, slug: "no-mistakes", name: "no-mistakes" }];
    if (method === "GET" && /^\/users\/[^/]+$/.test(p)) return [200, BOT_USER];
    if ((m = /^\/repos\/[^/]+\/[^/]+\/(.*)$/.exec(p))) {
      const rest = m[1]!;
      if (method === "GET" && rest.startsWith("contents/")) {
        this.count("config");
        return [404, { message: "Not Found" }];
      }
      if (method === "GET" && (m = /^commits\/([0-9a-f]{40})\/check-runs$/.exec(rest))) {
        const sha = m[1];
        const runs = [...this.checkRuns.values()].filter((c) => c.head_sha === sha).reverse();
        return [200, { total_count: runs.length, check_runs: runs }];
      }
      if (method === "POST" && rest === "check-runs") {
        this.count("check_run");
        const id = this.nextId++;
        this.checkRuns.set(id, {
          id,
          head_sha: body.head_sha,
          name: body.name,
          status: body.status ?? "queued",
          conclusion: body.conclusion,
        });
        return [201, this.checkRuns.get(id)];
      }
      if (method === "PATCH" && (m = /^check-runs\/(\d+)$/.exec(rest))) {
        const run = this.checkRuns.get(Number(m[1]));
        if (!run) return [404, { message: "Not Found" }];
        Object.assign(run, { status: body.status ?? run.status, conclusion: body.conclusion ?? run.conclusion });
        return [200, run];
      }
      if (method === "POST" && (m = /^pulls\/(\d+)\/reviews$/.exec(rest))) {
        this.count("review");
        const id = this.nextId++;
        const pr = Number(m[1]);
        const inline = (body.comments ?? []) as { path: string; line?: number; body: string }[];
        const list = this.reviewComments.get(pr) ?? [];
        for (const c of inline) {
          const cid = this.nextId++;
          list.push({
            id: cid,
            node_id: `RC_${cid}`,
            pull_request_review_id: id,
            body: c.body,
            path: c.path,
            line: c.line ?? null,
            user: BOT_USER,
          });
        }
        this.reviewComments.set(pr, list);
        this.reviews.push({
          pr,
          id,
          commitId: body.commit_id,
          body: body.body,
          at: performance.now(),
          comments: inline.length,
        });
        return [200, { id, body: body.body, state: "COMMENTED", commit_id: body.commit_id }];
      }
      if (method === "GET" && (m = /^pulls\/(\d+)\/reviews$/.exec(rest))) {
        const pr = Number(m[1]);
        return [
          200,
          this.reviews
            .filter((r) => r.pr === pr)
            .map((r) => ({ id: r.id, body: r.body, commit_id: r.commitId, state: "COMMENTED", user: BOT_USER })),
        ];
      }
      if (method === "GET" && (m = /^pulls\/(\d+)\/reviews\/(\d+)\/comments$/.exec(rest))) {
        const review = Number(m[2]);
        return [200, (this.reviewComments.get(Number(m[1])) ?? []).filter((c) => c.pull_request_review_id === review)];
      }
      if (method === "GET" && (m = /^pulls\/(\d+)\/comments$/.exec(rest)))
        return [200, this.reviewComments.get(Number(m[1])) ?? []];
      if (method === "POST" && /^pulls\/\d+\/comments$/.test(rest)) {
        const id = this.nextId++;
        return [201, { id, node_id: `RC_${id}`, body: body.body, path: body.path, line: body.line }];
      }
      if (method === "GET" && (m = /^issues\/(\d+)\/comments$/.exec(rest)))
        return [200, this.issueComments.get(Number(m[1])) ?? []];
      if (method === "POST" && (m = /^issues\/(\d+)\/comments$/.exec(rest))) {
        this.count("issue_comment");
        const comment = { id: this.nextId++, body: body.body, user: BOT_USER };
        const list = this.issueComments.get(Number(m[1])) ?? [];
        list.push(comment);
        this.issueComments.set(Number(m[1]), list);
        return [201, comment];
      }
      if (method === "PATCH" && (m = /^issues\/comments\/(\d+)$/.exec(rest))) {
        const id = Number(m[1]);
        for (const list of this.issueComments.values()) {
          const c = list.find((x) => x.id === id);
          if (c) {
            c.body = body.body;
            return [200, c];
          }
        }
        return [404, { message: "Not Found" }];
      }
    }
    this.unmatched.push(`${method} ${path}`);
    return [404, { message: "Not Found" }];
  }
}
