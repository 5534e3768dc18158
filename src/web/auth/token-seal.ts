import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const INFO = "no-mistakes web session token v1";
const VERSION = "v1";

/** Seals a person's GitHub token for the web_sessions table, and opens it again. */
export interface TokenSeal {
  /** AES-256-GCM with a random IV; `sessionId` is bound as associated data (a row's ciphertext opens only for it). */
  seal(token: string, sessionId: string): string;
  /** The token, or undefined when the text was not sealed by this key for this session. */
  open(sealed: string, sessionId: string): string | undefined;
}

/** A seal whose AES-256 key is derived with HKDF-SHA256 from `secret` (the OAuth client secret). */
export function createTokenSeal(secret: string): TokenSeal {
  const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), INFO, 32));
  return {
    seal(token, sessionId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(sessionId));
      const ciphertext = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(sealed, sessionId) {
      const [version, iv, tag, ciphertext] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
          .setAAD(Buffer.from(sessionId))
          .setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        // a wrong key (the client secret changed) or a tampered row: the session cannot be used
        return undefined;
      }
    },
  };
}
