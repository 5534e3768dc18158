import { updateFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ReviewerVerdict } from "./ask-reviewer.js";
import type { ReviewTurn } from "./review-turn.js";

/**
 * `verify.blocking` on the errors about to be posted that nothing reproduced (no reproducer, or one that did
 * not run as a test): `demote` posts them as warnings marked unverified (`demoted_from` keeps the reviewer's
 * severity), `keep` posts them as they are, `drop` keeps them as notes, not posted. A finding already demoted
 * or dropped (an earlier attempt of this job) is a warning or a note by now, so this never applies twice.
 */
export async function applyBlockingPolicy(
  deps: PipelineDeps,
  turn: ReviewTurn,
  verdict: ReviewerVerdict,
  posting: readonly Finding[],
  blocking: "demote" | "keep" | "drop",
): Promise<void> {
  if (blocking === "keep") return;
  const unproven = posting.filter(
    (f) => f.status === "open" && f.severity === "error" && f.reproduction !== "reproduced",
  );
  const by = { actor: "app", turnId: verdict.turnId ?? null };
  for (const f of unproven) {
    if (blocking === "demote")
      await updateFinding(deps.db, turn.run.id, f.number, { severity: "warning", demotedFrom: f.severity });
    else
      await updateFinding(
        deps.db,
        turn.run.id,
        f.number,
        { status: "note", demotedFrom: f.severity },
        { kind: "noted", ...by, detail: "an error no reproducer showed failing (verify.blocking: drop)" },
      );
  }
}
