import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { encodeBasicAuth } from "../../src/git/encode-basic-auth.js";

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>/<name>` */
  url(name: string): string;
  /** The Authorization header of every request received, in order (undefined when absent). */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * Git's smart HTTP protocol over `git http-backend`, serving the repositories under `root`. With
 * `token`, a request without `Authorization: Basic base64(x-access-token:<token>)` gets a 401,
 * as GitHub answers.
 */
export async function startGitHttpServer(root: string, options: { token?: string } = {}): Promise<GitHttpServer> {
  const expected = options.token === undefined ? undefined : `Basic ${encodeBasicAuth(options.token)}`;
  const authorizations: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (expected !== undefined && req.headers.authorization !== expected) {
      res.writeHead(401, { "WWW-Authenticate": 'Basic realm="test"', "Content-Type": "text/plain" });
      res.end("Unauthorized\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: root,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: "1",
      REMOTE_USER: "x-access-token", // enables receive-pack (push)
      REMOTE_ADDR: "127.0.0.1",
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      HTTP_CONTENT_ENCODING: req.headers["content-encoding"] ?? "",
      GIT_PROTOCOL: (req.headers["git-protocol"] as string | undefined) ?? "",
    };
    if (req.headers["content-length"] !== undefined) env.CONTENT_LENGTH = req.headers["content-length"];
    const backend = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "ignore"] });
    req.pipe(backend.stdin);
    const chunks: Buffer[] = [];
    backend.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    backend.on("close", () => {
      const output = Buffer.concat(chunks);
      const split = output.indexOf("\r\n\r\n");
      const headerEnd = split === -1 ? output.indexOf("\n\n") : split;
      const bodyStart = headerEnd + (split === -1 ? 2 : 4);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of output.subarray(0, Math.max(headerEnd, 0)).toString("latin1").split(/\r?\n/)) {
        const colon = line.indexOf(":");
        if (colon === -1) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.end(headerEnd === -1 ? output : output.subarray(bodyStart));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
