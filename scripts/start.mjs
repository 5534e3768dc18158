// `npm start`: compiles src/ (compile-src.mjs, in a short-lived process of its own), then runs the app from the
// compiled JavaScript in this same process — plain node with the app's Node options from package.json, no
// TypeScript loader resident. (tsx kept a CLI wrapper process, a loader thread and an esbuild service in the
// app, and the loader thread and another service in its worker process: ~250 MiB of a start.)
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const compile = fileURLToPath(new URL("./compile-src.mjs", import.meta.url));
const out = execFileSync(process.execPath, [compile], {
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
}).trim();
await import(pathToFileURL(join(out, "index.js")).href);
