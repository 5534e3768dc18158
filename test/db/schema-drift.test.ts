import { spawnSync } from "node:child_process";
import { cpSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
afterAll(() => removeTempDirs());

it("has a committed migration for every change to src/db/schema.ts", () => {
  const out = join(tempDir(), "drizzle");
  cpSync(join(ROOT, "drizzle"), out, { recursive: true });
  const before = readdirSync(out).sort();

  const result = spawnSync(
    join(ROOT, "node_modules/.bin/drizzle-kit"),
    ["generate", "--dialect", "postgresql", "--schema", "src/db/schema.ts", "--out", relative(ROOT, out)],
    { cwd: ROOT, encoding: "utf8" },
  );
  const printed = `${result.stdout}${result.stderr}`;

  expect(printed).toContain("No schema changes");
  expect(readdirSync(out).sort()).toEqual(before);
});
