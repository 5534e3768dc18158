import { inlineCode } from "../../text/sanitize-markdown.js";

/** The command list, sent for `help` and for anything unknown. */
export function helpText(unknown?: string): string {
  const said = unknown !== undefined && (unknown.length > 60 ? `${unknown.slice(0, 60)}…` : unknown);
  const lead = said !== false ? `I don't know ${inlineCode(`/no-mistakes ${said}`)}. ` : "";
  return [
    `${lead}Commands (comment on the pull request):`,
    "",
    "| command | does |",
    "| --- | --- |",
    "| `/no-mistakes fix [all \\| NM-1 NM-4 …] [-- note]` | the fixer fixes the open findings (default: errors and warnings), commits and pushes; the push is reviewed again |",
    "| `/no-mistakes review [--full]` | review now; `--full` reviews the whole PR in a fresh session |",
    "| `/no-mistakes dismiss NM-2 [reason]` | dismiss a finding; it is not raised again in this PR |",
    "| `/no-mistakes reset [reviewer \\| fixer]` | forget the agent session(s); the next turn starts fresh |",
    "| `/no-mistakes pause` / `resume` | stop / restart automatic reviews on push |",
    "| `/no-mistakes ask <question>` | the reviewer answers in a reply (read-only; counts against the PR's turn and cost limits) |",
    "| `/no-mistakes status` | open findings, sessions, turns and spend |",
    "| `/no-mistakes config` | the repository's settings in effect, each with where it came from (default, organisation, `_extends`, this repository) |",
    "| `/no-mistakes learn` | propose the team's recent decisions (dismissals with a reason, withdrawals, fixes in merged pull requests) as a pull request to the learnings file |",
    "| `/no-mistakes help` | this list |",
    "",
    "Every command except `status`, `config`, `help` and `ask` needs write access to the repository; `ask` is for the PR's author and writers.",
    "",
    "To argue a finding, reply in its thread: the reviewer answers there and rules on it (upheld, withdrawn or deferred). A withdrawal the PR's author asked for on a finding that fails the check counts once someone with write access confirms it (👍 on the ruling, or a reply saying `confirm`).",
  ].join("\n");
}
