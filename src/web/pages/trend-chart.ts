import type { ScorecardWeek } from "../views/scorecard-view.js";
import { html } from "./html.js";
import type { HtmlSafe } from "./html-safe.js";

const W = 320;
const H = 120;
const PAD = { left: 30, right: 6, top: 8, bottom: 20 };
const PLOT_W = W - PAD.left - PAD.right;
const PLOT_H = H - PAD.top - PAD.bottom;

const x = (i: number, n: number) => PAD.left + (n <= 1 ? PLOT_W / 2 : (i * PLOT_W) / (n - 1));
const y = (share: number) => PAD.top + PLOT_H * (1 - share);
const round = (v: number) => Math.round(v * 10) / 10;
const day = (d: Date) => d.toISOString().slice(5, 10);

/** One line's points: the weeks that posted anything, as `x,y` pairs of its share. */
function points(weeks: ScorecardWeek[], share: (w: ScorecardWeek) => number): string {
  return weeks
    .map((w, i) => (w.posted === 0 ? undefined : `${round(x(i, weeks.length))},${round(y(share(w)))}`))
    .filter((p) => p !== undefined)
    .join(" ");
}

/**
 * The addressed and noise rates week by week, as a small SVG drawn on the server: no script, no inline
 * style (the pages' CSP), colours from the stylesheet's variables and `currentColor`, so it follows the
 * light or dark scheme; it scales to its container's width (375 px screens included). Weeks that posted
 * nothing have no point.
 */
export function rateTrendChart(weeks: ScorecardWeek[]): HtmlSafe {
  const n = weeks.length;
  const label = `Addressed and noise rate per week, ${weeks.map((w) => `${day(w.weekStart)}: ${w.posted === 0 ? "none posted" : `${w.fixed} of ${w.posted} fixed, ${w.noise} noise`}`).join("; ")}`;
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">
    <title>Addressed and noise rate per week</title>
    ${[0, 0.5, 1].map(
      (s) =>
        html`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(s)}" y2="${y(s)}" />
          <text class="axis" x="${PAD.left - 4}" y="${y(s) + 3}" text-anchor="end">${s * 100}%</text>`,
    )}
    ${
      n > 0 &&
      html`<text class="axis" x="${x(0, n)}" y="${H - 4}" text-anchor="start">${day(weeks[0]!.weekStart)}</text>
        <text class="axis" x="${x(n - 1, n)}" y="${H - 4}" text-anchor="end">${day(weeks[n - 1]!.weekStart)}</text>`
    }
    <polyline class="line addressed" points="${points(weeks, (w) => w.fixed / w.posted)}" />
    <polyline class="line noise" points="${points(weeks, (w) => w.noise / w.posted)}" />
    ${weeks.map((w, i) =>
      w.posted === 0
        ? undefined
        : html`<circle class="dot addressed" cx="${round(x(i, n))}" cy="${round(y(w.fixed / w.posted))}" r="2.5" />
            <circle class="dot noise" cx="${round(x(i, n))}" cy="${round(y(w.noise / w.posted))}" r="2.5" />`,
    )}
  </svg>`;
}

/** Findings posted per week, as bars (the same drawing rules as rateTrendChart). */
export function postedTrendChart(weeks: ScorecardWeek[]): HtmlSafe {
  const n = Math.max(1, weeks.length);
  const most = Math.max(1, ...weeks.map((w) => w.posted));
  const slot = PLOT_W / n;
  const label = `Findings posted per week, ${weeks.map((w) => `${day(w.weekStart)}: ${w.posted}`).join("; ")}`;
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">
    <title>Findings posted per week</title>
    <line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(0)}" y2="${y(0)}" />
    <text class="axis" x="${PAD.left - 4}" y="${y(1) + 3}" text-anchor="end">${most}</text>
    <text class="axis" x="${PAD.left - 4}" y="${y(0) + 3}" text-anchor="end">0</text>
    ${weeks.map((w, i) => {
      const h = round((PLOT_H * w.posted) / most);
      return html`<rect
        class="bar"
        x="${round(PAD.left + i * slot + slot * 0.15)}"
        y="${round(y(0) - h)}"
        width="${round(slot * 0.7)}"
        height="${h}"
      />`;
    })}
    ${
      weeks.length > 0 &&
      html`<text class="axis" x="${PAD.left}" y="${H - 4}" text-anchor="start">${day(weeks[0]!.weekStart)}</text>
        <text class="axis" x="${W - PAD.right}" y="${H - 4}" text-anchor="end">${day(weeks.at(-1)!.weekStart)}</text>`
    }
  </svg>`;
}
