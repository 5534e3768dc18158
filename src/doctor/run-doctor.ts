import { existsSync } from "node:fs";
import { readEnvFilePath } from "../config/env/env-config.js";
import { formatCheck } from "./doctor-check.js";
import { runChecks } from "./run-checks.js";

// `npm run doctor`: one line per check, exit code 0 only when every check passed.
const envFile = readEnvFilePath();
if (existsSync(envFile)) process.loadEnvFile(envFile);
try {
  const ok = await runChecks(process.env, (check) => console.log(formatCheck(check)));
  console.log(ok ? "\nall checks passed" : "\nfix the ✗ lines above, then run npm run doctor again");
  process.exit(ok ? 0 : 1);
} catch (error) {
  console.error("npm run doctor failed:", error);
  process.exit(1);
}
