import type { Logger } from "pino";
import type { AppOwner } from "../../github/github-user-client.js";

const OWNER_TTL_MS = 10 * 60_000;
const OWNER_RETRY_MS = 30_000;

/**
 * Whether a person is the operator: a WEB_ADMINS id, or the App's owner when that is a User (`readOwner`, kept
 * OWNER_TTL_MS; after a failure asked again only after OWNER_RETRY_MS). Matched by GitHub user id, never by login.
 */
export function createOperatorCheck(
  admins: readonly number[],
  readOwner: (() => Promise<AppOwner | undefined>) | undefined,
  log: Logger,
  now: () => number,
): (user: { id: number }) => Promise<boolean> {
  let ownerCache: { until: number; owner: AppOwner | undefined } | undefined;
  return async (user) => {
    if (admins.includes(user.id)) return true;
    if (!readOwner) return false;
    if (!ownerCache || ownerCache.until <= now()) {
      try {
        ownerCache = { until: now() + OWNER_TTL_MS, owner: await readOwner() };
      } catch (error) {
        log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "web: could not read the App's owner",
        );
        // Asked again after a short while, not on every page while GitHub fails.
        ownerCache = { until: now() + OWNER_RETRY_MS, owner: undefined };
        return false;
      }
    }
    const owner = ownerCache.owner;
    return owner?.type === "User" && owner.id === user.id;
  };
}
