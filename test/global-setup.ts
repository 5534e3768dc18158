import { execFileSync } from "node:child_process";

/** The agent tests run the real CLIs inside bubblewrap (socat its model bridge), as the image does: say so at once when one is missing. */
export default function checkSandboxTools(): void {
  for (const [tool, args] of [
    ["bwrap", ["--version"]],
    ["socat", ["-V"]],
  ] as const) {
    try {
      execFileSync(tool, args, { stdio: "ignore" });
    } catch {
      throw new Error(
        `${tool} is not installed: the agent tests run the real CLIs inside the sandbox, as the app does. Install bubblewrap and socat (Debian/Ubuntu: apt-get install bubblewrap socat) — .ci/run does this on CI.`,
      );
    }
  }
}
