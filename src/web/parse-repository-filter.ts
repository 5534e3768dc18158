import type { RepositoryFilter } from "./views/repository-view.js";

const STATES = new Set(["open", "closed", "paused", "all"]);
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;

/** The repository page's filter from its query string; anything unknown is left at its default. */
export function parseRepositoryFilter(params: URLSearchParams): RepositoryFilter {
  const state = params.get("state") ?? "open";
  const author = params.get("author")?.trim();
  const page = Number(params.get("page") ?? "1");
  return {
    state: (STATES.has(state) ? state : "open") as RepositoryFilter["state"],
    ...(author && LOGIN.test(author) ? { author } : {}),
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}
