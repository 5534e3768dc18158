/** The run view's one stylesheet, served at /assets/run-view.css (pages have no inline styles: the CSP forbids them). */
export const runViewCss = `:root {
  color-scheme: light dark;
  --fg: #1f2328;
  --muted: #59636e;
  --bg: #ffffff;
  --panel: #f6f8fa;
  --line: #d1d9e0;
  --link: #0969da;
  --error: #cf222e;
  --warning: #9a6700;
  --info: #0969da;
  --ok: #1a7f37;
}
@media (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3;
    --muted: #9198a1;
    --bg: #0d1117;
    --panel: #151b23;
    --line: #3d444d;
    --link: #4493f8;
    --error: #f85149;
    --warning: #d29922;
    --info: #4493f8;
    --ok: #3fb950;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0;
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif;
  color: var(--fg);
  background: var(--bg);
}
a { color: var(--link); }
code, pre, .sha { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre {
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  margin: 0.5em 0;
  padding: 0.5em 0.75em;
  background: var(--panel);
  border: 1px solid var(--line);
  border-radius: 6px;
  max-height: 40em;
  overflow: auto;
}
.site-header {
  display: flex;
  flex-wrap: wrap;
  gap: 0.5em 1.5em;
  align-items: center;
  padding: 0.75em 1.5em;
  border-bottom: 1px solid var(--line);
  background: var(--panel);
}
.site-header .app { font-weight: 600; color: var(--fg); text-decoration: none; }
.site-header .account { margin-left: auto; display: flex; gap: 1em; align-items: center; }
.site-header form { margin: 0; }
.breadcrumbs ol { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; }
.breadcrumbs li + li::before { content: "/"; padding: 0 0.4em; color: var(--muted); }
main { padding: 1em 1.5em 3em; max-width: 110em; }
h1 { font-size: 1.5em; margin: 0.3em 0; overflow-wrap: anywhere; }
h2 { font-size: 1.2em; margin: 1.2em 0 0.4em; }
.muted, .empty { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0; }
th, td { text-align: left; vertical-align: top; padding: 0.3em 0.6em; border-bottom: 1px solid var(--line); }
th { font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.title { overflow-wrap: anywhere; }
.table-scroll { overflow-x: auto; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; margin: 0.5em 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.severity-error { color: var(--error); font-weight: 600; }
.severity-warning { color: var(--warning); font-weight: 600; }
.severity-info { color: var(--info); }
.status { padding: 0 0.4em; border: 1px solid var(--line); border-radius: 1em; white-space: nowrap; }
.status-failed, .status-interrupted { color: var(--error); }
.status-succeeded, .status-fixed, .status-done { color: var(--ok); }
.label { display: inline-block; padding: 0 0.5em; margin: 0 0.2em 0.2em 0; border: 1px solid var(--line); border-radius: 1em; }
details { margin: 0.3em 0; }
details > summary { cursor: pointer; }
details.finding { border: 1px solid var(--line); border-radius: 6px; padding: 0.3em 0.75em; }
details.finding[open] { background: var(--panel); }
details.finding > summary { overflow-wrap: anywhere; }
ol.events { margin: 0.3em 0; padding-left: 1.5em; }
ol.events li { margin: 0.2em 0; }
form.filter { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: end; margin: 0.5em 0; }
form.filter label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
nav.pagination { display: flex; gap: 1em; margin: 0.75em 0; }
.message { max-width: 40em; }
details.section > summary h2 { display: inline; }
details.failed-job > summary { overflow-wrap: anywhere; }
.fallback-reason { color: var(--warning); overflow-wrap: anywhere; }
td pre.reason { max-height: 12em; }
ol.executions { margin: 0.3em 0; padding-left: 1.5em; }
ol.executions li { margin: 0.4em 0; overflow-wrap: anywhere; }
pre.command { margin: 0.2em 0; }
pre.output { max-height: 24em; }
section.turn-executions h3 { font-size: 1em; margin: 0.8em 0 0.2em; }
h3.reproducer-runs { font-size: 1em; margin: 0.6em 0 0.2em; }
.status-reproduced { color: var(--error); }
.status-broken, .status-timed-out, .status-limit, .status-error { color: var(--warning); }
.status-passed, .status-not-reproduced { color: var(--ok); }
.cached { color: var(--info); }
a.button { display: inline-block; padding: 0.4em 1em; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); text-decoration: none; }
.scorecard .charts { display: flex; flex-wrap: wrap; gap: 1em 2em; }
.scorecard figure { margin: 0.5em 0; flex: 1 1 16em; max-width: 30em; }
.scorecard figcaption { font-size: 12px; color: var(--muted); }
svg.chart { display: block; width: 100%; height: auto; color: var(--fg); }
svg.chart .grid { stroke: var(--line); stroke-width: 1; }
svg.chart .axis { fill: var(--muted); font-size: 9px; }
svg.chart .line { fill: none; stroke-width: 2; }
svg.chart .bar { fill: var(--info); }
svg.chart .addressed { stroke: var(--ok); }
svg.chart .noise { stroke: var(--warning); }
svg.chart .dot.addressed { fill: var(--ok); stroke: none; }
svg.chart .dot.noise { fill: var(--warning); stroke: none; }
.key.addressed, dd.addressed { color: var(--ok); font-weight: 600; }
.key.noise, dd.noise { color: var(--warning); font-weight: 600; }
`;
