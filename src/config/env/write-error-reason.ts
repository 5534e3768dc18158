/** Why a file or folder could not be written, in words with the error's code: `permission denied, EACCES`. */
export function writeErrorReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const why =
    code === "EACCES" || code === "EPERM"
      ? "permission denied"
      : code === "ENOENT"
        ? "its folder does not exist"
        : code === "EROFS"
          ? "a read-only filesystem"
          : code === "ENOTDIR"
            ? "a file is in the way"
            : message;
  return `${why}${code ? `, ${code}` : ""}`;
}
