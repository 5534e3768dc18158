import { createServer } from "node:net";

/**
 * Why the server cannot listen on host:port, or undefined when it can: a listener is opened there and
 * closed again. Port 0 (any free port) always can. `setting` names the port in the problem (PORT, METRICS_PORT).
 */
export async function portProblem(host: string, port: number, setting = "PORT"): Promise<string | undefined> {
  if (port === 0) return undefined;
  const server = createServer();
  return new Promise((resolvePromise) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      server.close();
      if (error.code === "EADDRINUSE")
        resolvePromise(
          `${setting}: ${port} on ${host} is in use by another process; stop it, or set ${setting} to a free port`,
        );
      else if (error.code === "EACCES")
        resolvePromise(`${setting}: ${port} on ${host} needs privileges this process lacks; use a port above 1023`);
      else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND" || error.code === "EAI_AGAIN")
        resolvePromise(
          `HOST: "${host}" is not an address of this machine (${error.code}); ${setting} ${port} cannot be opened there`,
        );
      else resolvePromise(`${setting}: cannot listen on ${host}:${port} (${error.message})`);
    });
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolvePromise(undefined)));
  });
}
