import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { writeErrorReason } from "./write-error-reason.js";

/**
 * Why the setup flow could not save a new App's credentials in the .env file at `path` (ENV_FILE), or
 * undefined when it can. Checked before the flow is served: GitHub hands over the App's private key once,
 * and a key that cannot be saved is lost.
 */
export function envFileProblem(path: string): string | undefined {
  const file = resolve(path);
  try {
    if (existsSync(file) && !statSync(file).isFile()) return problem(file, "it is not a file");
    accessSync(existsSync(file) ? file : dirname(file), constants.W_OK);
    return undefined;
  } catch (error) {
    return problem(file, writeErrorReason(error));
  }
}

function problem(file: string, why: string): string {
  return `ENV_FILE: the setup flow saves the new App's credentials in "${file}", which cannot be written (${why}); set ENV_FILE to a file the app may write (in a container, on its volume: /data/.env)`;
}
