import { listFindings } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ChosenFindings, FixTurn } from "./fix-turn.js";

/**
 * Which open findings to fix, as the request names them (the default: errors and warnings); undefined
 * when there are none, and the reply says there is nothing to fix.
 */
export async function chooseFindings(deps: PipelineDeps, turn: FixTurn): Promise<ChosenFindings | undefined> {
  const { request } = turn;
  const ledger = await listFindings(deps.db, turn.run.id);
  const open = ledger.filter((f) => f.status === "open");
  let chosen: Finding[];
  const notOpen: string[] = [];
  if (request.findings === "all") chosen = open;
  else if (request.findings === "default")
    chosen = open.filter((f) => f.severity === "error" || f.severity === "warning");
  else if (request.findings === "auto-fix") chosen = open.filter((f) => f.action === "auto-fix");
  else {
    chosen = [];
    for (const n of request.findings) {
      const f = open.find((o) => o.number === n);
      if (f) chosen.push(f);
      else notOpen.push(findingId(n));
    }
  }
  const notOpenNote = notOpen.length
    ? ` (${notOpen.join(", ")} ${notOpen.length === 1 ? "is" : "are"} not an open finding)`
    : "";
  if (chosen.length === 0) {
    await turn.reply(`${turn.who}There is nothing to fix${notOpenNote}.`);
    return undefined;
  }
  return { chosen, notOpenNote };
}
