/** Code points HFS+ ignores in names, so `.g\u200cit` is `.git` there (git's own list, `is_hfs_dotgit`). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * Whether a path component names a repository directory on some filesystem git checks out to:
 * `.git` in any case, with the code points HFS+ ignores, with trailing dots or spaces (NTFS drops
 * them), an NTFS stream suffix, or NTFS's short name `git~1` — the names `core.protectNTFS`/`core.protectHFS` make git
 * refuse. A component like that anywhere below the root is a nested repository or a way into one.
 */
export function isDotGitName(component: string): boolean {
  const name = component.replace(HFS_IGNORED, "").toLowerCase();
  if (name === "git~1") return true;
  // NTFS also reads `.git::$INDEX_ALLOCATION` (an alternate stream) as the directory itself.
  return name.split(":")[0]!.replace(/[. ]+$/, "") === ".git";
}
