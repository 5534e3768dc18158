/** A candidate pairing of finding `finding` with real issue `issue`; higher `score` is a better match. */
export interface Candidate {
  finding: number;
  issue: number;
  score: number;
}

interface Edge {
  to: number;
  capacity: number;
  cost: number;
  /** The index of the reverse edge in `to`'s list. */
  back: number;
  candidate?: number;
}

/**
 * The best one-to-one assignment: as many pairs as possible (each finding counts for at most one real issue
 * and each issue for at most one finding), and among those the largest total score. Exact: a min-cost
 * maximum flow (source → findings → issues → sink, each candidate an edge costing −score), augmented one
 * shortest path (Bellman-Ford) at a time, which keeps the flow of each size the cheapest of that size.
 * Sizes are tens of findings and issues, so the cubic cost is nothing. Ties between equally good
 * assignments go to the one reached first, which favours earlier findings, then earlier issues: the same
 * input gives the same result, whatever the candidates' order.
 */
export function assignOneToOne<T extends Candidate>(candidates: readonly T[]): T[] {
  const sorted = [...candidates].sort((x, y) => x.finding - y.finding || x.issue - y.issue || y.score - x.score);
  const findings = [...new Set(sorted.map((c) => c.finding))];
  const issues = [...new Set(sorted.map((c) => c.issue))].sort((x, y) => x - y);
  const source = 0;
  const sink = 1 + findings.length + issues.length;
  const findingNode = (f: number) => 1 + findings.indexOf(f);
  const issueNode = (i: number) => 1 + findings.length + issues.indexOf(i);
  const graph: Edge[][] = Array.from({ length: sink + 1 }, () => []);
  const link = (from: number, to: number, cost: number, candidate?: number) => {
    graph[from]!.push({ to, capacity: 1, cost, back: graph[to]!.length, candidate });
    graph[to]!.push({ to: from, capacity: 0, cost: -cost, back: graph[from]!.length - 1 });
  };
  for (const f of findings) link(source, findingNode(f), 0);
  for (const [k, c] of sorted.entries()) link(findingNode(c.finding), issueNode(c.issue), -c.score, k);
  for (const i of issues) link(issueNode(i), sink, 0);

  for (;;) {
    const path = shortestPath(graph, source, sink);
    if (!path) break;
    for (const [node, index] of path) {
      const edge = graph[node]![index]!;
      edge.capacity--;
      graph[edge.to]![edge.back]!.capacity++;
    }
  }
  const chosen = graph
    .flat()
    .filter((e) => e.candidate !== undefined && e.capacity === 0)
    .map((e) => sorted[e.candidate!]!);
  return chosen.sort((x, y) => x.finding - y.finding || x.issue - y.issue);
}

/** The cheapest path from source to sink through edges with capacity left, as (node, edge index) steps; undefined when there is none. */
function shortestPath(graph: Edge[][], source: number, sink: number): [number, number][] | undefined {
  const distance = graph.map(() => Infinity);
  const via: ([number, number] | undefined)[] = graph.map(() => undefined);
  distance[source] = 0;
  // Bellman-Ford: residual costs can be negative. 1e-12 keeps rounding from relaxing an equal path again.
  for (let round = 0, changed = true; changed && round < graph.length; round++) {
    changed = false;
    for (const [node, edges] of graph.entries()) {
      if (distance[node] === Infinity) continue;
      for (const [index, edge] of edges.entries()) {
        if (edge.capacity > 0 && distance[node]! + edge.cost < distance[edge.to]! - 1e-12) {
          distance[edge.to] = distance[node]! + edge.cost;
          via[edge.to] = [node, index];
          changed = true;
        }
      }
    }
  }
  if (distance[sink] === Infinity) return undefined;
  const path: [number, number][] = [];
  for (let node = sink; node !== source;) {
    const step = via[node]!;
    path.unshift(step);
    node = step[0];
  }
  return path;
}
