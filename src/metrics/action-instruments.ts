import { Counter, type Registry } from "prom-client";

/** What the app did outside: requests to GitHub, things it refused, the fixer's pushes. */
export function actionInstruments(registers: Registry[]) {
  const githubRequests = new Counter({
    name: "github_requests_total",
    help: "Requests to GitHub's API by method and status (error: no HTTP answer).",
    labelNames: ["method", "status"],
    registers,
  });
  const refusals = new Counter({
    name: "refusals_total",
    help: "Things the app refused to do or take, by kind.",
    labelNames: ["kind"],
    registers,
  });
  const fixPushes = new Counter({
    name: "fix_pushes_total",
    help: "Fixer commits by outcome: accepted (pushed) or refused (not pushed; the reply carries the patch).",
    labelNames: ["outcome"],
    registers,
  });
  return { githubRequests, refusals, fixPushes };
}
