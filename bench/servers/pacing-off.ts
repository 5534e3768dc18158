// Preloaded (--import) into the bench's app process, and so into every process it forks with its own
// Node options (ROLE=all's worker process): GitHub's client-side write pacing off, as in app-server.ts.
import { applyGitHubPacingSetting } from "../lib/github-pacing.js";

applyGitHubPacingSetting();
