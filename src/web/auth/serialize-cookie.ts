/** What a cookie of the run view is set with: always HttpOnly and SameSite=Lax. */
export interface CookieOptions {
  path: string;
  /** Seconds; 0 clears the cookie. */
  maxAge: number;
  /** Sent only over https (the app is behind TLS). */
  secure: boolean;
}

/** A Set-Cookie header value. `value` must be cookie-safe already (the app's values are base64url). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, `Max-Age=${Math.max(0, Math.floor(options.maxAge))}`];
  if (options.maxAge <= 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  parts.push("HttpOnly", "SameSite=Lax");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
