/**
 * One path whose content or mode differs between two commits, as `git diff --raw` reports it (no
 * rename detection: a rename is a deletion and an addition). An absent side has mode "000000" and
 * the all-zero blob id.
 */
export interface TreeChange {
  path: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
}
