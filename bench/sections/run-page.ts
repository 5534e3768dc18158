/**
 * 9. The run view's largest page: a PR's run with 500 findings (3 events each) and 300 turns, every text
 * field hostile-looking (tags, mentions) and each finding's body a few hundred characters with code,
 * rendered to HTML in this process. Reports the median and p95 CPU time (the target: the page's own cost,
 * whatever else the machine runs) and wall time of a render after warm-up, and the page's size. 60
 * renders (15 in smoke).
 */
import { renderRunPage } from "../../src/web/pages/render-run-page.js";
import { viewFixtures } from "../../test/web/pages/view-fixtures.js";
import { SMOKE, emitResult, round } from "../lib/common.js";

const BODY =
  "The cache key ignores the tenant: `getCache(key)` is called with the user's id only, so two tenants " +
  "with the same id share entries. Use `${tenant}:${user}` as the key.\n\n```ts\nconst v = cache.get<Map<string, number>>(key);\n```\n";

const view = viewFixtures({
  findings: 500,
  eventsPerFinding: 3,
  turns: 300,
  text: (field) => (field.includes("body") ? BODY.repeat(2) : `${field} <b>x</b> @octocat`),
}).run;
const ctx = { user: { login: "alice" }, operator: true, github: { webOrigin: "https://github.com" } };
const rounds = SMOKE ? 15 : 60;

for (let i = 0; i < 10; i++) renderRunPage(view, ctx);
const wall: number[] = [];
const cpu: number[] = [];
let bytes = 0;
for (let i = 0; i < rounds; i++) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  bytes = Buffer.byteLength(renderRunPage(view, ctx));
  wall.push(performance.now() - started);
  const used = process.cpuUsage(cpuBefore);
  cpu.push((used.user + used.system) / 1000);
}
const at = (values: number[], q: number) =>
  round([...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))]!);
emitResult({
  findings: view.findings.length,
  events: view.findings.reduce((n, f) => n + f.events.length, 0),
  turns: view.turns.length,
  kb: Math.round(bytes / 1024),
  wallMs: { p50: at(wall, 0.5), p95: at(wall, 0.95) },
  cpuMs: { p50: at(cpu, 0.5), p95: at(cpu, 0.95) },
});
