import { execFileSync } from "node:child_process";

/** The agent tests run the real CLIs inside bubblewrap, as production does: say so at once when it is missing. */
export default function checkBubblewrap(): void {
  try {
    execFileSync("bwrap", ["--version"], { stdio: "ignore" });
  } catch {
    throw new Error("bubblewrap (bwrap) is not installed: the agent tests run the real CLIs inside it, as the app does. Install it (Debian/Ubuntu: apt-get install bubblewrap) — .ci/run does this on CI.");
  }
}
