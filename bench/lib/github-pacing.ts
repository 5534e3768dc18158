import { createRequire } from "node:module";

// bottleneck/light.js has no type declarations; it is the copy @octokit/plugin-throttling loads.
const Bottleneck = createRequire(import.meta.url)("bottleneck/light.js") as { prototype: unknown };

/**
 * Probot's Octokit paces writes per installation on the client (@octokit/plugin-throttling: ≥ 1 s
 * between writes, ≥ 3 s between writes that notify, e.g. reviews and comments), as GitHub asks.
 * Against a local stand-in that is pure waiting, so the bench turns it off (as
 * test/helpers/app-harness.ts does) unless BENCH_GITHUB_PACING=on. Every limiter of the plugin is
 * a bottleneck/light instance: scheduling runs the job at once.
 */
export function applyGitHubPacingSetting(): "on" | "off" {
  if (process.env.BENCH_GITHUB_PACING === "on") return "on";
  const proto = Bottleneck.prototype as unknown as { schedule: (...args: unknown[]) => Promise<unknown> };
  proto.schedule = function (...args: unknown[]): Promise<unknown> {
    if (typeof args[0] !== "function") args.shift(); // job options
    const [fn, ...rest] = args as [(...a: unknown[]) => unknown, ...unknown[]];
    return Promise.resolve().then(() => fn(...rest));
  };
  return "off";
}
