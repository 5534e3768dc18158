import { createSign } from "node:crypto";

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** The JWT a GitHub App authenticates as itself with (RS256, issued a minute back for clock drift, valid 9 minutes). */
export function appJwt(appId: number, privateKey: string, now = Date.now()): string {
  const iat = Math.floor(now / 1000) - 60;
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify({ iat, exp: iat + 600, iss: String(appId) }));
  const signature = createSign("RSA-SHA256").update(`${header}.${payload}`).sign(privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}
