import { existsSync } from "node:fs";
import { checkStartup } from "./config/env/check-startup.js";
import { ConfigError } from "./config/config-error.js";
import { readEnvFilePath } from "./config/env/env-config.js";
import { createLogger } from "./logging/create-logger.js";
import { resolveLogFormat } from "./logging/resolve-log-format.js";
import { handleStopSignals } from "./system/handle-stop-signals.js";
import { watchLaunchers } from "./system/watch-launchers.js";
import { startServer, type RunningServer } from "./wiring/start-server.js";

const envFile = readEnvFilePath();
if (existsSync(envFile)) process.loadEnvFile(envFile);

try {
  const config = await checkStartup();
  const log = createLogger({
    level: config.logLevel,
    secrets: config.secrets,
    format: resolveLogFormat(config.logFormat, process.stdout.isTTY),
  });
  // Signals are taken from before the start: one that arrives while the app starts (the embedded database
  // opening, migrations) stops it once started, as gracefully as later, instead of killing it half-open.
  let running: RunningServer | undefined;
  let stopWhenStarted = false;
  const stop = (server: RunningServer) =>
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "stop failed");
        process.exit(1);
      },
    );
  const stops = handleStopSignals({
    log,
    fields: { graceMs: config.stopGraceMs },
    stopGracefully: () => {
      if (running) void stop(running);
      else stopWhenStarted = true;
    },
    stopAtOnce: () => process.exit(1),
  });
  running = await startServer(config, log);
  if (stopWhenStarted) void stop(running);
  watchLaunchers({
    log,
    onGone: (launcher) => {
      log.warn(
        { launcher: { pid: launcher.pid, command: launcher.command } },
        "the process that started the app is gone",
      );
      stops.stop({ reason: "launcher gone" });
    },
  });
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`no-mistakes cannot start. ${error.message}`);
  } else {
    console.error("no-mistakes failed to start:", error);
  }
  process.exit(1);
}
