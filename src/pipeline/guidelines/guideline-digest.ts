import { createHash } from "node:crypto";

/** A short digest of a guideline as given (its key and text), for the session's memory. */
export function guidelineDigest(key: string, text: string | undefined): string {
  return createHash("sha256")
    .update(`${key}\0${text ?? ""}`)
    .digest("base64url")
    .slice(0, 16);
}
