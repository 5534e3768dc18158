/** A repository on GitHub, by its owner's login and its name: `{ owner: "acme", repo: "widgets" }`. */
export interface RepoRef {
  owner: string;
  repo: string;
}
