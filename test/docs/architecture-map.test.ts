import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

interface Room {
  path: string;
  floor: number;
  imports: string[];
}
interface PipelineRoom {
  room: string;
  imports: string[];
}
const map = createRequire(import.meta.url)("../../scripts/architecture-map.cjs") as {
  ROOMS: Room[];
  PIPELINE_ROOMS: PipelineRoom[];
  renderTables: () => { folders: string; rooms: string };
};
const root = new URL("../../", import.meta.url);

/** The folder (or loose file) of src/ a module belongs to, as the map names it. */
function folderOf(path: string): string | undefined {
  const match = /^src\/([^/]+)(\/)?/.exec(path);
  if (!match) return undefined;
  return match[2] ? `src/${match[1]}/` : `src/${match[1]}`;
}
function pipelineRoomOf(path: string): string | undefined {
  return /^src\/pipeline\/([^/]+)\//.exec(path)?.[1];
}

/** Every import the code makes between folders of src/ and between the pipeline's rooms, read by dependency-cruiser. */
function arrows(): { folders: Set<string>; rooms: Set<string> } {
  const out = execFileSync(
    "npx",
    ["depcruise", "src", "--config", ".dependency-cruiser.cjs", "--output-type", "json", "--no-progress"],
    { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  const modules = (JSON.parse(out) as { modules: { source: string; dependencies: { resolved: string }[] }[] }).modules;
  const folders = new Set<string>();
  const rooms = new Set<string>();
  for (const { source, dependencies } of modules) {
    for (const { resolved } of dependencies) {
      const [from, to] = [folderOf(source), folderOf(resolved)];
      if (from && to && from !== to) folders.add(`${from} → ${to}`);
      const [fromRoom, toRoom] = [pipelineRoomOf(source), pipelineRoomOf(resolved)];
      if (fromRoom && toRoom && fromRoom !== toRoom) rooms.add(`${fromRoom} → ${toRoom}`);
    }
  }
  return { folders, rooms };
}

describe("the architecture map (scripts/architecture-map.cjs)", () => {
  it("is the table docs/architecture.md shows (`npm run map` writes it)", () => {
    const doc = readFileSync(new URL("docs/architecture.md", root), "utf8");
    const { folders, rooms } = map.renderTables();
    expect(doc).toContain(`<!-- map:folders -->\n${folders}\n<!-- /map:folders -->`);
    expect(doc).toContain(`<!-- map:rooms -->\n${rooms}\n<!-- /map:rooms -->`);
  });

  it("names every folder and loose module of src/, and nothing else", () => {
    const entries = readdirSync(new URL("src/", root), { withFileTypes: true })
      .filter((e) => e.isDirectory() || /\.[cm]?ts$/.test(e.name))
      .map((e) => (e.isDirectory() ? `src/${e.name}/` : `src/${e.name}`));
    expect(map.ROOMS.map((r) => r.path).sort()).toEqual(entries.sort());
    const pipelineRooms = readdirSync(new URL("src/pipeline/", root), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(map.PIPELINE_ROOMS.map((r) => r.room).sort()).toEqual(pipelineRooms.sort());
  });

  it("has every arrow point down: a row imports only rows on lower floors", () => {
    const floor = new Map(map.ROOMS.map((r) => [r.path, r.floor]));
    const up = map.ROOMS.flatMap((r) =>
      r.imports.filter((to) => to !== "*" && !((floor.get(to) ?? 0) > r.floor)).map((to) => `${r.path} → ${to}`),
    );
    expect(up).toEqual([]);
    const order = map.PIPELINE_ROOMS.map((r) => r.room);
    const upRooms = map.PIPELINE_ROOMS.flatMap((r) =>
      r.imports.filter((to) => order.indexOf(to) <= order.indexOf(r.room)).map((to) => `${r.room} → ${to}`),
    );
    expect(upRooms).toEqual([]);
  });

  it("allows only imports the code makes (npm run deps refuses the ones it does not allow)", () => {
    const made = arrows();
    const unused = map.ROOMS.flatMap((r) =>
      r.imports.filter((to) => to !== "*" && !made.folders.has(`${r.path} → ${to}`)).map((to) => `${r.path} → ${to}`),
    );
    expect(unused).toEqual([]);
    const unusedRooms = map.PIPELINE_ROOMS.flatMap((r) =>
      r.imports.filter((to) => !made.rooms.has(`${r.room} → ${to}`)).map((to) => `${r.room} → ${to}`),
    );
    expect(unusedRooms).toEqual([]);
  }, 120_000);
});
