import type { ChangedFile, ChangeStatus } from "./changed-file.js";

/**
 * Joins the output of `git diff -z --numstat` and `git diff -z --name-status` (same revisions,
 * same rename detection) into one entry per changed file.
 */
export function parseChangedFiles(numstat: string, nameStatus: string): ChangedFile[] {
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  const numFields = numstat.split("\0");
  for (let i = 0; i < numFields.length; i++) {
    const field = numFields[i]!;
    if (field === "") continue;
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(field);
    if (!match) throw new Error(`unexpected numstat entry: ${JSON.stringify(field)}`);
    const [, added, deleted, inlinePath] = match as unknown as [string, string, string, string];
    let key: string;
    if (inlinePath === "") {
      // A rename or copy: the old and new paths follow as their own fields.
      const oldPath = numFields[++i] ?? "";
      const newPath = numFields[++i] ?? "";
      key = `${oldPath}\0${newPath}`;
    } else {
      key = inlinePath;
    }
    const binary = added === "-" && deleted === "-";
    counts.set(key, {
      additions: binary ? 0 : Number(added),
      deletions: binary ? 0 : Number(deleted),
      binary,
    });
  }

  const files: ChangedFile[] = [];
  const nameFields = nameStatus.split("\0");
  for (let i = 0; i < nameFields.length; i++) {
    const code = nameFields[i]!;
    if (code === "") continue;
    const letter = code[0]!;
    let file: ChangedFile;
    if (letter === "R" || letter === "C") {
      const oldPath = nameFields[++i] ?? "";
      const path = nameFields[++i] ?? "";
      const count = counts.get(`${oldPath}\0${path}`);
      file =
        letter === "R"
          ? { path, oldPath, status: "renamed", ...numbers(count) }
          : { path, status: "added", ...numbers(count) };
    } else {
      const path = nameFields[++i] ?? "";
      file = { path, status: statusOf(letter), ...numbers(counts.get(path)) };
    }
    files.push(file);
  }
  return files;
}

function statusOf(letter: string): ChangeStatus {
  switch (letter) {
    case "A":
      return "added";
    case "D":
      return "deleted";
    default:
      return "modified"; // M, T (type change), U, X
  }
}

function numbers(count: { additions: number; deletions: number; binary: boolean } | undefined) {
  if (!count) return { additions: 0, deletions: 0 };
  return count.binary
    ? { additions: 0, deletions: 0, binary: true as const }
    : { additions: count.additions, deletions: count.deletions };
}
