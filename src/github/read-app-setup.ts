import { Octokit } from "@octokit/rest";
import { appJwt } from "./app-jwt.js";

/** The App as GitHub has it registered: what `npm run doctor` compares with this app's settings. */
export interface AppSetup {
  /** `owner`: the organization that owns the App, when one does (its settings live under the organization). */
  app: { slug: string; name: string; htmlUrl: string; organization?: string };
  hook: { url?: string; contentType?: string; secretSet: boolean };
  installations: {
    account: string;
    permissions: Record<string, string>;
    events: string[];
  }[];
}

/** Why a call as the App failed: `auth` (GitHub refused the JWT), `http` (another answer), `network` (no answer). */
export class AppSetupError extends Error {
  constructor(
    readonly kind: "auth" | "http" | "network",
    readonly step: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "AppSetupError";
  }
}

/** Reads GET /app, /app/hook/config and /app/installations as the App (JWT); errors classified here. */
export async function readAppSetup(options: {
  appId: number;
  privateKey: string;
  baseUrl?: string;
}): Promise<AppSetup> {
  const octokit = new Octokit({
    auth: appJwt(options.appId, options.privateKey),
    baseUrl: options.baseUrl ?? "https://api.github.com",
    request: { retries: 0 },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }, // each outcome is a doctor line instead
  });
  const app = await call("GET /app", () => octokit.request("GET /app"));
  const hook = await call("GET /app/hook/config", () => octokit.request("GET /app/hook/config"));
  const installations = await call("GET /app/installations", () =>
    octokit.paginate("GET /app/installations", { per_page: 100 }),
  );
  return {
    app: {
      slug: app.data?.slug ?? "",
      name: app.data?.name ?? "",
      htmlUrl: app.data?.html_url ?? "",
      organization: ownerOrganization(app.data?.owner),
    },
    hook: {
      url: hook.data.url,
      contentType: hook.data.content_type,
      secretSet: typeof hook.data.secret === "string" && hook.data.secret !== "",
    },
    installations: installations.map((i) => ({
      account: accountName(i.account) ?? String(i.id),
      permissions: i.permissions as Record<string, string>,
      events: i.events,
    })),
  };
}

async function call<T>(step: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    // A fetch that got no answer reaches us as a RequestError with status 500 and no response.
    const answered = (error as { response?: unknown }).response !== undefined;
    const status = answered ? (error as { status?: number }).status : undefined;
    const message = (error as Error).message;
    if (status === 401) throw new AppSetupError("auth", step, message, status);
    if (typeof status === "number" && status > 0) throw new AppSetupError("http", step, message, status);
    throw new AppSetupError("network", step, message);
  }
}

/** A user's or organization's login, or an enterprise's name. */
function accountName(account: unknown): string | undefined {
  const a = account as { login?: string; name?: string } | null | undefined;
  return a?.login ?? a?.name ?? undefined;
}

function ownerOrganization(owner: unknown): string | undefined {
  const o = owner as { login?: string; type?: string } | null | undefined;
  return o?.type === "Organization" ? o.login : undefined;
}
