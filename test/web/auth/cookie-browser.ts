/** One Set-Cookie header, as a browser reads it. */
export interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
  raw: string;
}

export function parseSetCookie(raw: string): SetCookie {
  const [pair = "", ...rest] = raw.split(";");
  const at = pair.indexOf("=");
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const [key = "", ...value] = part.trim().split("=");
    attributes[key.toLowerCase()] = value.length ? value.join("=") : true;
  }
  return { name: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim(), attributes, raw };
}

/**
 * A browser reduced to what sign-in needs: it keeps cookies per path (Max-Age=0 deletes), sends them to
 * the app's origin only, follows no redirect by itself, and keeps every answer's body and Set-Cookie.
 */
export class CookieBrowser {
  readonly cookies = new Map<string, { value: string; path: string }>();
  readonly bodies: string[] = [];
  readonly setCookies: SetCookie[] = [];

  constructor(private readonly appOrigin: string) {}

  async open(
    url: string,
    init: { method?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; location?: string; body: string; setCookies: SetCookie[] }> {
    const target = new URL(url, this.appOrigin);
    const headers: Record<string, string> = { ...init.headers };
    if (target.origin === this.appOrigin) {
      const sent = [...this.cookies]
        .filter(([, c]) => target.pathname === c.path || target.pathname.startsWith(c.path.replace(/\/?$/, "/")))
        .map(([name, c]) => `${name}=${c.value}`);
      if (sent.length) headers.cookie = sent.join("; ");
    }
    const response = await fetch(target, { method: init.method ?? "GET", headers, redirect: "manual" });
    const body = await response.text();
    this.bodies.push(body);
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    if (target.origin === this.appOrigin)
      for (const c of setCookies) {
        this.setCookies.push(c);
        if (c.attributes["max-age"] === "0") this.cookies.delete(c.name);
        else this.cookies.set(c.name, { value: c.value, path: String(c.attributes.path ?? "/") });
      }
    return { status: response.status, location: response.headers.get("location") ?? undefined, body, setCookies };
  }
}
