// `npm run map`: writes the folder and pipeline-room tables of docs/architecture.md from
// scripts/architecture-map.cjs (test/docs/architecture-map.test.ts fails when they differ).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const { renderTables } = createRequire(import.meta.url)("./architecture-map.cjs");
const file = new URL("../docs/architecture.md", import.meta.url);
const tables = renderTables();
let text = readFileSync(file, "utf8");
for (const [name, table] of Object.entries(tables)) {
  const block = new RegExp(`(<!-- map:${name} -->)[\\s\\S]*?(<!-- /map:${name} -->)`);
  if (!block.test(text))
    throw new Error(`docs/architecture.md has no <!-- map:${name} --> … <!-- /map:${name} --> block`);
  text = text.replace(block, (_m, open, close) => `${open}\n${table}\n${close}`);
}
writeFileSync(file, text);
console.log("docs/architecture.md: folder and room tables written");
