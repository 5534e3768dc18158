import { describe, expect, it } from "vitest";
import { createTokenSeal } from "../../../src/web/auth/token-seal.js";

const TOKEN = "ghu_PersonsOwnToken0123456789abcdefABCD";

describe("createTokenSeal", () => {
  const seal = createTokenSeal("client-secret-one");

  it("opens what it sealed for the same session, and the sealed text does not hold the token", () => {
    const sealed = seal.seal(TOKEN, "session-a");
    expect(sealed).not.toContain(TOKEN);
    expect(sealed).not.toContain(Buffer.from(TOKEN).toString("base64url"));
    expect(seal.open(sealed, "session-a")).toBe(TOKEN);
  });

  it("seals the same token differently every time (a random IV)", () => {
    expect(seal.seal(TOKEN, "s")).not.toBe(seal.seal(TOKEN, "s"));
  });

  it.each([
    ["another session's row", (s: string) => ({ sealed: s, session: "session-b", key: seal })],
    [
      "another client secret",
      (s: string) => ({ sealed: s, session: "session-a", key: createTokenSeal("client-secret-two") }),
    ],
    [
      "a changed byte",
      (s: string) => {
        const parts = s.split(".");
        const body = Buffer.from(parts[3]!, "base64url");
        body[0] = body[0]! ^ 1;
        parts[3] = body.toString("base64url");
        return { sealed: parts.join("."), session: "session-a", key: seal };
      },
    ],
    ["not sealed text", () => ({ sealed: TOKEN, session: "session-a", key: seal })],
  ])("opens nothing for %s", (_name, change) => {
    const { sealed, session, key } = change(seal.seal(TOKEN, "session-a"));
    expect(key.open(sealed, session)).toBeUndefined();
  });
});
