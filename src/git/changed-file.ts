export type ChangeStatus = "added" | "modified" | "deleted" | "renamed";

/** One file changed between two commits. */
export interface ChangedFile {
  /** Path at `to` (for a deleted file, its path at `from`). */
  path: string;
  /** Path at `from`, for renames only. */
  oldPath?: string;
  status: ChangeStatus;
  /** Lines added and deleted; 0 for binary files. */
  additions: number;
  deletions: number;
  /** Present (true) when git sees the file as binary. */
  binary?: true;
}
