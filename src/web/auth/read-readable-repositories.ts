import { GitHubError } from "../../github/github-error.js";
import type { WebAuthContext } from "./web-auth-context.js";

const REPOSITORIES_TTL_MS = 60_000;

/**
 * Repository ids the person can read through the App's installations, asked of GitHub with their own token and
 * kept REPOSITORIES_TTL_MS per session. Undefined when the session has ended (GitHub refused the token, the token
 * cannot be opened, or the session expired or was signed out meanwhile); any other GitHub failure throws.
 */
export async function readReadableRepositories(
  context: WebAuthContext,
  sessionId: string,
): Promise<Set<number> | undefined> {
  const { repositoriesCache: cache, now } = context;
  const cached = cache.get(sessionId);
  if (cached && cached.until > now()) return new Set(cached.ids);
  const row = await context.store.find(sessionId, new Date(now()));
  if (!row) return undefined; // expired, or signed out in another tab, since the cookie was read
  if (!context.seal) return new Set();
  const token = context.seal.open(row.tokenCiphertext, row.id);
  if (token === undefined)
    return endSession(context, sessionId, "the stored token cannot be opened (GITHUB_CLIENT_SECRET changed?)");
  let ids: Set<number>;
  try {
    ids = await context.client.reachableRepositoryIds(token);
  } catch (error) {
    if (error instanceof GitHubError && error.status === 401)
      return endSession(context, sessionId, "GitHub refused the person's token");
    throw error;
  }
  for (const [id, entry] of cache) if (entry.until <= now()) cache.delete(id);
  cache.set(sessionId, { until: now() + REPOSITORIES_TTL_MS, ids });
  return new Set(ids);
}

async function endSession(context: WebAuthContext, sessionId: string, why: string): Promise<undefined> {
  await context.store.delete(sessionId);
  context.repositoriesCache.delete(sessionId);
  context.log.info({ why }, "web: session ended");
  return undefined;
}
