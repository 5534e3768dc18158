/** A path the run view answers. */
export type WebRoute =
  | { kind: "asset" }
  | { kind: "auth" }
  | { kind: "repositories" }
  | { kind: "repository"; fullName: string }
  | { kind: "run"; fullName: string; prNumber: number }
  | { kind: "operator" }
  /** Under /repos/ but no page of it: 404 once signed in, like a repository the person cannot read. */
  | { kind: "unknown" };

/** GitHub's characters for owner and repository names (a dot-only name is not one). */
const NAME = "([A-Za-z0-9_.-]{1,100})";
const REPOSITORY = new RegExp(`^/repos/${NAME}/${NAME}/?$`);
const RUN = new RegExp(`^/repos/${NAME}/${NAME}/pull/([1-9][0-9]{0,9})/?$`);

/** The run view's route for a path, or undefined for a path it leaves to other handlers. */
export function webRoute(pathname: string): WebRoute | undefined {
  if (pathname === "/assets/run-view.css") return { kind: "asset" };
  if (pathname === "/login" || pathname === "/logout" || pathname === "/oauth/callback") return { kind: "auth" };
  if (pathname === "/repos" || pathname === "/repos/") return { kind: "repositories" };
  if (pathname === "/operator") return { kind: "operator" };
  const run = RUN.exec(pathname);
  if (run && isName(run[1]!) && isName(run[2]!))
    return { kind: "run", fullName: `${run[1]}/${run[2]}`, prNumber: Number(run[3]) };
  const repository = REPOSITORY.exec(pathname);
  if (repository && isName(repository[1]!) && isName(repository[2]!))
    return { kind: "repository", fullName: `${repository[1]}/${repository[2]}` };
  if (pathname.startsWith("/repos/")) return { kind: "unknown" };
  return undefined;
}

function isName(name: string): boolean {
  return !/^\.+$/.test(name);
}
