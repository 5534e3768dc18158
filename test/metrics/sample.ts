/** The value of one series (`name{labels}` exactly as exposed) in Prometheus exposition text; undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
