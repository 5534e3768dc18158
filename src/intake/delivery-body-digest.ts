import { AsyncLocalStorage } from "node:async_hooks";

/** The signed body's digest of the delivery whose handlers are running (each request has its own). */
const current = new AsyncLocalStorage<string | undefined>();

/** GitHub's `x-hub-signature-256`: one value per body and secret, and the only one the signature check accepts. */
const SIGNATURE = /^sha256=([0-9a-f]{64})$/;

/**
 * Runs a delivery's verification and handlers knowing its body's digest: the hex of its signature, an
 * HMAC-SHA256 of the raw body that the signature check computes anyway, so byte-identical bodies share it
 * and a digest costs nothing. The handlers only see the parsed payload; the intake reads the digest here
 * when it accepts their record.
 */
export function withBodyDigest<T>(signature: string | undefined, handle: () => T): T {
  return current.run(signature === undefined ? undefined : SIGNATURE.exec(signature)?.[1], handle);
}

/** The digest of the delivery being handled; undefined outside a signed delivery's handlers. */
export function currentBodyDigest(): string | undefined {
  return current.getStore();
}
