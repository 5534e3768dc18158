import { existsSync } from "node:fs";
import { ConfigError } from "./config/config-error.js";
import { readEnvConfig } from "./config/env-config.js";
import { createLogger } from "./logging/create-logger.js";
import { startServer } from "./wiring/start-server.js";

if (existsSync(".env")) process.loadEnvFile(".env");

try {
  const config = readEnvConfig();
  const log = createLogger({ level: config.logLevel, secrets: config.secrets });
  const running = await startServer(config, log);
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) {
        // A second signal: stop now. Jobs still running are handed back by the next process to look.
        log.warn({ signal }, "stopping at once");
        process.exit(1);
      }
      stopping = true;
      log.info(
        { signal, graceMs: config.stopGraceMs },
        "stopping: running turns get the grace period, webhooks are still answered meanwhile",
      );
      running.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, "stop failed");
          process.exit(1);
        },
      );
    });
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`no-mistakes cannot start. ${error.message}`);
  } else {
    console.error("no-mistakes failed to start:", error);
  }
  process.exit(1);
}
