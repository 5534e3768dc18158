import { linearRegex } from "../../config/repo/linear-regex/index.js";

/**
 * Whether a branch name matches a glob of `ignore.base_branches` / `ignore.head_branches`: `*` is any run
 * of characters but `/`, `**` any run including `/`, `?` one character but `/`; the rest is literal, and
 * the glob covers the whole name (`release/*`, `dependabot/**`). Time is linear in the name.
 */
export function matchBranchGlob(glob: string, branch: string): boolean {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return linearRegex(`^${source}$`, "s", { maxInstructions: Infinity }).test(branch);
}
