/** The base64 credentials of GitHub's token-over-Basic-auth scheme (`x-access-token:<token>`). */
export function encodeBasicAuth(token: string): string {
  return Buffer.from(`x-access-token:${token}`, "utf8").toString("base64");
}
