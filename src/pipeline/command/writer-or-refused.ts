import type { Run } from "../../db/schema.js";
import { WRITERS } from "../ledger/standing.js";
import type { CommandCall } from "./command-call.js";

/** Whether the comment's author may run a writers' command; when not, the refusal is recorded and said. */
export async function writerOrRefused(
  { deps, job, github, ref, log, reply }: CommandCall,
  run: Run,
  kind: string,
): Promise<boolean> {
  const permission = await github.getPermission(ref, job.author);
  if (WRITERS.has(permission)) return true;
  log.info({ author: job.author, permission }, "command refused");
  await deps.refusals.refuse({
    kind: "unauthorized_command",
    repositoryFullName: run.repositoryFullName,
    prNumber: run.prNumber,
    actor: job.author,
    reason: `${kind}: needs write access (permission ${permission})`,
  });
  await reply(
    `@${job.author} \`/no-mistakes ${kind}\` needs write access to this repository (yours: ${permission}). Anyone can use \`status\`, \`config\` and \`help\`.`,
  );
  return false;
}
