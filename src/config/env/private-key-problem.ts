import { createPrivateKey, createSign } from "node:crypto";

/**
 * Why the App's private key cannot sign the JWT every GitHub API call starts with (RS256), or undefined
 * when it can. `setting` names where the key came from (PRIVATE_KEY, or PRIVATE_KEY_PATH and its file).
 */
export function privateKeyProblem(key: string, setting: string): string | undefined {
  try {
    const parsed = createPrivateKey(key);
    if (parsed.asymmetricKeyType !== "rsa")
      return `${setting}: is a ${parsed.asymmetricKeyType ?? "non-RSA"} key; a GitHub App key is RSA (the .pem file GitHub gave you)`;
    createSign("RSA-SHA256").update("no-mistakes start-up check").sign(parsed);
    return undefined;
  } catch (error) {
    return `${setting}: cannot sign a GitHub App token with this key (${(error as Error).message}); use the .pem file GitHub gave you, unchanged`;
  }
}
