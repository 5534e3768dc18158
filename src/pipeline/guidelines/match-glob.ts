import { linearRegex, type LinearRegex } from "../../config/repo/linear-regex/index.js";

const compiled = new Map<string, LinearRegex>();

/**
 * Whether a repository path matches a glob as teams write them in rule files and `path_instructions`:
 * `*` and `?` stay within one folder, `**` crosses folders, `[abc]` and `{ts,tsx}` as usual. A glob
 * without a `/` matches the file's name at any depth (`*.ts`), unless `anchored`; a glob naming a folder
 * (`src/db`, `src/db/`) matches everything under it. A leading `./` or `/` is ignored. Time is linear in
 * the path (times the glob's length), however many `**` the glob holds.
 */
export function matchGlob(glob: string, path: string, options: { anchored?: boolean } = {}): boolean {
  const pattern = glob.trim().replace(/^\.?\//, "");
  if (pattern === "") return false;
  const anywhere = !options.anchored && !pattern.replace(/\/$/, "").includes("/");
  const key = `${anywhere ? "a" : "r"}:${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    const body = toRegex(pattern.replace(/\/$/, ""));
    // a glob has no counted repetition: its program grows with its length alone
    regex = linearRegex(`^${anywhere ? "(?:.*/)?" : ""}${body}(?:/.*)?$`, "u", { maxInstructions: Infinity });
    compiled.set(key, regex);
  }
  return regex.test(path);
}

function toRegex(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slashAfter = glob[i + 2] === "/";
      out += slashAfter ? "(?:.*/)?" : ".*";
      i += slashAfter ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end === -1) out += "\\[";
      else {
        const inner = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        out += `[${inner}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = glob.indexOf("}", i);
      if (end === -1) out += "\\{";
      else {
        out += `(?:${glob
          .slice(i + 1, end)
          .split(",")
          .map(toRegex)
          .join("|")})`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return out;
}
