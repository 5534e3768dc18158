import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** A person GitHub signs in, and the App installations (with their repository ids) they reach. */
export interface OAuthPerson {
  id: number;
  login: string;
  installations: { id: number; repositories: number[] }[];
}

/** The App's OAuth client the code exchange accepts. */
export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

const DOCS = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const random = (prefix: string, n: number) =>
  prefix + Array.from(randomBytes(n), (b) => ALPHABET[b % ALPHABET.length]).join("");

/**
 * Sign-in with GitHub (the OAuth web flow) on the bench's GitHub server, after GitHub's documented
 * behaviour: GET /login/oauth/authorize (on the web host) sends the browser back to redirect_uri with a
 * `code` and the same `state`; POST /login/oauth/access_token exchanges a code once for a user token
 * (a wrong client, code or redirect_uri answers 200 with `error`, as GitHub does; JSON when asked with
 * `Accept: application/json`, else form-encoded); the token then reads GET /user, GET /user/installations
 * and GET /user/installations/:id/repositories (paginated with `per_page`/`page` and a Link header), and
 * any other token answers 401. Counts the requests it answered, by route.
 */
export class GitHubOAuthRoutes {
  readonly counts = new Map<string, number>();
  private readonly codes = new Map<
    string,
    { person: OAuthPerson; redirectUri: string; used: boolean; until: number }
  >();
  private readonly tokens = new Map<string, OAuthPerson>();

  /**
   * @param person who the authorize step signs in (as if they typed their password on GitHub)
   * @param origin the server's own origin, for the Link headers of paginated answers
   */
  constructor(
    private readonly client: OAuthClient,
    private readonly person: OAuthPerson,
    private readonly origin: () => string,
  ) {}

  /** Answers the request when it is one of these routes (true), else leaves it (false). */
  handle(req: IncomingMessage, raw: string, res: ServerResponse): boolean {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://stand-in.invalid");
    const api = url.pathname.replace(/^\/api\/v3/, "");
    if (method === "GET" && url.pathname === "/login/oauth/authorize") return this.authorize(url, res);
    if (method === "POST" && url.pathname === "/login/oauth/access_token") return this.accessToken(req, url, raw, res);
    if (method !== "GET" || !url.pathname.startsWith("/api/v3/")) return false;
    if (api === "/user")
      return this.asPerson(req, res, "user", (p) => [
        200,
        { login: p.login, id: p.id, type: "User", site_admin: false },
      ]);
    if (api === "/user/installations")
      return this.asPerson(req, res, "user_installations", (p) =>
        this.page(
          url,
          "installations",
          p.installations.map((i) => ({
            id: i.id,
            app_id: 1,
            app_slug: "no-mistakes",
            target_type: "Organization",
            account: { login: "octo-org", type: "Organization" },
          })),
        ),
      );
    const m = /^\/user\/installations\/(\d+)\/repositories$/.exec(api);
    if (m)
      return this.asPerson(req, res, "user_installation_repositories", (p) => {
        const installation = p.installations.find((i) => i.id === Number(m[1]));
        if (!installation) return [404, { message: "Not Found" }];
        return this.page(
          url,
          "repositories",
          installation.repositories.map((id) => ({
            id,
            name: `repo-${id}`,
            full_name: `octo-org/repo-${id}`,
            private: true,
          })),
        );
      });
    return false;
  }

  private count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  private authorize(url: URL, res: ServerResponse): boolean {
    this.count("authorize");
    const query = url.searchParams;
    if (query.get("client_id") !== this.client.clientId) {
      send(res, 404, "<html><body>The client_id is not a registered application.</body></html>", "text/html");
      return true;
    }
    const redirectUri = query.get("redirect_uri");
    if (!redirectUri) {
      send(res, 400, "<html><body>redirect_uri is required by this stand-in</body></html>", "text/html");
      return true;
    }
    const code = random("", 20);
    this.codes.set(code, { person: this.person, redirectUri, used: false, until: Date.now() + 600_000 });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    const state = query.get("state");
    if (state !== null) back.searchParams.set("state", state);
    res.writeHead(302, { location: back.toString(), "content-length": 0 });
    res.end();
    return true;
  }

  private accessToken(req: IncomingMessage, url: URL, raw: string, res: ServerResponse): boolean {
    this.count("access_token");
    const form = raw.startsWith("{")
      ? new URLSearchParams(JSON.parse(raw) as Record<string, string>)
      : new URLSearchParams(raw);
    const param = (name: string) => form.get(name) ?? url.searchParams.get(name) ?? undefined;
    const json = /application\/json/.test(String(req.headers.accept ?? ""));
    const answer = (fields: Record<string, string | number>) => {
      if (json) send(res, 200, JSON.stringify(fields), "application/json; charset=utf-8");
      else
        send(
          res,
          200,
          new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString(),
          "application/x-www-form-urlencoded; charset=utf-8",
        );
      return true;
    };
    if (param("client_id") !== this.client.clientId || param("client_secret") !== this.client.clientSecret)
      return answer({
        error: "incorrect_client_credentials",
        error_description: "The client_id and/or client_secret passed are incorrect.",
        error_uri: `${DOCS}/#incorrect-client-credentials`,
      });
    const code = param("code");
    const issued = code ? this.codes.get(code) : undefined;
    if (!issued || issued.used || issued.until < Date.now())
      return answer({
        error: "bad_verification_code",
        error_description: "The code passed is incorrect or expired.",
        error_uri: `${DOCS}/#bad-verification-code`,
      });
    issued.used = true;
    const redirectUri = param("redirect_uri");
    if (redirectUri !== undefined && redirectUri !== issued.redirectUri)
      return answer({
        error: "redirect_uri_mismatch",
        error_description: "The redirect_uri MUST match the registered callback URL for this application.",
        error_uri: `${DOCS}/#redirect-uri-mismatch2`,
      });
    const token = random("ghu_", 36);
    this.tokens.set(token, issued.person);
    return answer({
      access_token: token,
      expires_in: 28_800,
      refresh_token: random("ghr_", 76),
      refresh_token_expires_in: 15_897_600,
      token_type: "bearer",
      scope: "",
    });
  }

  /** Answers as the person the request's user token names, or 401 when it names none. */
  private asPerson(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    fn: (person: OAuthPerson) => [number, unknown, Record<string, string>?],
  ): boolean {
    this.count(key);
    const match = /^(?:bearer|token)\s+(\S+)$/i.exec(req.headers.authorization ?? "");
    const person = match ? this.tokens.get(match[1]!) : undefined;
    const [status, data, headers] = person
      ? fn(person)
      : [401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }];
    send(res, status, JSON.stringify(data), "application/json; charset=utf-8", headers);
    return true;
  }

  /** One page of `items` under `key` with `total_count`, and a Link to the next page when there is one. */
  private page(url: URL, key: string, items: unknown[]): [number, unknown, Record<string, string>] {
    const perPage = Math.min(Math.max(Number(url.searchParams.get("per_page") ?? 30), 1), 100);
    const n = Math.max(Number(url.searchParams.get("page") ?? 1), 1);
    const headers: Record<string, string> =
      n * perPage < items.length
        ? { link: `<${this.origin()}${url.pathname}?per_page=${perPage}&page=${n + 1}>; rel="next"` }
        : {};
    return [200, { total_count: items.length, [key]: items.slice((n - 1) * perPage, n * perPage) }, headers];
  }
}

function send(res: ServerResponse, status: number, text: string, type: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
