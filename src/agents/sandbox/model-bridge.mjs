// Runs INSIDE the agent sandbox, which has no network but its own loopback: listens on 127.0.0.1:<port>
// for each bridge, hands every connection to the unix socket bound into the sandbox for it (the app's model
// proxy, a setup's egress proxy), then runs the command and exits with its status.
// Usage: node model-bridge.mjs <port>=<socket>[,<port>=<socket>...] <command> [args...]
import { spawn } from "node:child_process";
import { connect, createServer } from "node:net";

const [pairs, command, ...args] = process.argv.slice(2);
const bridges = (pairs ?? "")
  .split(",")
  .filter(Boolean)
  .map((pair) => {
    const at = pair.indexOf("=");
    return { port: Number(pair.slice(0, at)), socket: pair.slice(at + 1) };
  });
if (bridges.length === 0 || bridges.some((b) => !b.port || !b.socket) || !command) {
  process.stderr.write("model-bridge: usage: model-bridge.mjs <port>=<socket>[,…] <command> [args...]\n");
  process.exit(2);
}

function listen({ port, socket }) {
  const server = createServer((client) => {
    const upstream = connect(socket);
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
    client.on("close", close);
    upstream.on("close", close);
  });
  return new Promise((resolve) => {
    server.on("error", (error) => {
      process.stderr.write(`model-bridge: cannot listen on 127.0.0.1:${port}: ${error.message}\n`);
      process.exit(2);
    });
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

const servers = await Promise.all(bridges.map(listen));
const child = spawn(command, args, { stdio: "inherit" });
child.on("error", (error) => {
  process.stderr.write(`model-bridge: cannot start ${command}: ${error.message}\n`);
  process.exit(127);
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  for (const server of servers) server.close();
  process.exit(code ?? 128 + (signal === "SIGKILL" ? 9 : 15));
});
