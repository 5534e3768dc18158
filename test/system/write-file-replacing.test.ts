import { mkdtempSync, readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileReplacing } from "../../src/system/write-file-replacing.js";

describe("writeFileReplacing", () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), "nm-replacing-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("a reader racing the writes sees one whole version or the other, never an empty or cut-off file", async () => {
    const path = join(dir(), "nested", "uses.json");
    const versions = ["a", "b"].map((c) => JSON.stringify({ fill: c.repeat(512 * 1024) }));
    await writeFileReplacing(path, versions[0]!);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 60; i++) await writeFileReplacing(path, versions[i % 2]!);
      writing = false;
    })();
    const seen = new Set<string>();
    while (writing) {
      const text = await readFile(path, "utf8");
      expect(versions).toContain(text);
      seen.add(text.slice(9, 10));
    }
    await writer;
    expect(seen.size).toBeGreaterThan(0);
    expect(readdirSync(join(path, ".."))).toEqual(["uses.json"]);
  });

  it("a write that cannot take the place leaves the old content and no temp file behind", async () => {
    const d = dir();
    const path = join(d, "taken");
    mkdirSync(path);
    writeFileSync(join(path, "inside"), "kept");
    await expect(writeFileReplacing(path, "new")).rejects.toThrow();
    expect(readdirSync(d)).toEqual(["taken"]);
    expect(readFileSync(join(path, "inside"), "utf8")).toBe("kept");
  });
});
