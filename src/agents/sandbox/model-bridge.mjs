// Runs INSIDE the agent sandbox, which has no network but its own loopback: listens on
// 127.0.0.1:<port>, hands every connection to the app's model proxy through the unix socket bound
// into the sandbox, then runs the agent CLI and exits with its status.
// Usage: node model-bridge.mjs <port> <socket> <command> [args...]
import { spawn } from "node:child_process";
import { connect, createServer } from "node:net";

const [port, socketPath, command, ...args] = process.argv.slice(2);
if (!port || !socketPath || !command) {
  process.stderr.write("model-bridge: usage: model-bridge.mjs <port> <socket> <command> [args...]\n");
  process.exit(2);
}

const server = createServer((client) => {
  const upstream = connect(socketPath);
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

server.on("error", (error) => {
  process.stderr.write(`model-bridge: cannot listen on 127.0.0.1:${port}: ${error.message}\n`);
  process.exit(2);
});

server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(command, args, { stdio: "inherit" });
  child.on("error", (error) => {
    process.stderr.write(`model-bridge: cannot start ${command}: ${error.message}\n`);
    process.exit(127);
  });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    server.close();
    process.exit(code ?? 128 + (signal === "SIGKILL" ? 9 : 15));
  });
});
