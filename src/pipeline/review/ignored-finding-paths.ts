import type { Finding } from "../../db/schema.js";
import type { GitWorkspace } from "../../git/git-workspace.js";
import type { DiffIndex } from "../../github/parse-diff.js";
import { placeFinding } from "../../github/place-finding.js";
import { matchGlob } from "../guidelines/match-glob.js";

/**
 * The findings' files that the PR changes but `ignore.paths` leaves out of the placement diff, each with
 * the glob that left it out when it is recognisably one (undefined otherwise, or when `nameGlobs` is false:
 * a private config's globs are not quoted). Git decides what is left out; the glob is only named for the
 * reader. Nothing is asked of git unless a finding's file is missing from the diff.
 */
export async function ignoredFindingPaths(
  workspace: Pick<GitWorkspace, "changedFiles">,
  ws: { mergeBase: string; headSha: string },
  diff: DiffIndex,
  findings: readonly Finding[],
  ignore: { globs: readonly string[]; nameGlobs: boolean },
): Promise<Map<string, string | undefined>> {
  const absent = new Set(
    findings
      .map((f) => f.path)
      .filter((p): p is string => !!p)
      .filter((path) => {
        const placed = placeFinding(diff, { path, line: 1 });
        return placed.kind === "body" && placed.reason === "file-not-in-diff";
      }),
  );
  if (absent.size === 0 || ignore.globs.length === 0) return new Map();
  const [all, kept] = await Promise.all([
    workspace.changedFiles(ws.mergeBase, ws.headSha),
    workspace.changedFiles(ws.mergeBase, ws.headSha, { excludeGlobs: ignore.globs }),
  ]);
  const keptPaths = new Set(kept.map((f) => f.path));
  const ignored = all.map((f) => f.path).filter((p) => absent.has(p) && !keptPaths.has(p));
  return new Map(
    ignored.map((path) => [
      path,
      ignore.nameGlobs ? ignore.globs.find((glob) => matchGlob(glob, path, { anchored: true })) : undefined,
    ]),
  );
}
