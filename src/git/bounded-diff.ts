/** A file a diff left out, and why: it is larger than one file may be, or the diff's budget was spent. */
export interface LeftOutFile {
  path: string;
  /** Bytes of the file's two sides (before and after) together. */
  bytes: number;
  why: "file-too-large" | "diff-too-large";
}

/** A unified diff read within the workspace's size limits, with the files it had to leave out. */
export interface BoundedDiff {
  text: string;
  leftOut: LeftOutFile[];
}

export interface DiffLimits {
  /** A file either of whose sides is larger than this is left out of every diff. */
  maxFileBytes: number;
  /** The bytes (both sides of every file) one diff may read; files past it are left out, in git's order. */
  maxTotalBytes: number;
}

/** 8 MiB a side, 24 MiB a diff: the largest diff git can print from that is under its 64 MiB output cap. */
export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxFileBytes: 8 * 1024 * 1024, maxTotalBytes: 24 * 1024 * 1024 };
