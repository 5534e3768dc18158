/** A signed-in browser: its session cookie (`name=value`), and what each step of the sign-in answered. */
export interface SignedIn {
  cookie: string;
  steps: { login: number; authorize: number; callback: number; page: number };
}

/** The `name=value` of the cookie `name` among a response's Set-Cookie headers, or undefined. */
function cookieOf(response: Response, name: string): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return undefined;
}

/**
 * Signs in to the app at `origin` as a browser does, following each redirect by hand: GET /login?next=/repos
 * (the app sets its state cookie and sends the browser to GitHub's authorize page), GitHub's authorize page
 * (which sends it back to the callback with a code and the state), the callback with the state cookie (the
 * app exchanges the code, reads the person and sets the session cookie), then the page it was going to,
 * which must answer 200 with the session cookie.
 */
export async function signIn(origin: string): Promise<SignedIn> {
  const manual = { redirect: "manual" } as const;
  const login = await fetch(`${origin}/login?next=%2Frepos`, manual);
  const state = cookieOf(login, "nm_oauth_state");
  const toGitHub = login.headers.get("location");
  if (login.status !== 302 || !state || !toGitHub)
    throw new Error(
      `sign-in: /login answered ${login.status}, location ${toGitHub}, state cookie ${state !== undefined}`,
    );
  await login.arrayBuffer();

  const authorize = await fetch(toGitHub, manual);
  const back = authorize.headers.get("location");
  if (authorize.status !== 302 || !back)
    throw new Error(`sign-in: GitHub's authorize page answered ${authorize.status}: ${await authorize.text()}`);
  await authorize.arrayBuffer();

  const callback = await fetch(back, { ...manual, headers: { cookie: state } });
  const session = cookieOf(callback, "nm_session");
  const next = callback.headers.get("location");
  if (callback.status !== 302 || !session || next !== "/repos")
    throw new Error(`sign-in: the callback answered ${callback.status}, location ${next}: ${await callback.text()}`);
  await callback.arrayBuffer();

  const page = await fetch(`${origin}${next}`, { ...manual, headers: { cookie: session } });
  await page.arrayBuffer();
  if (page.status !== 200) throw new Error(`sign-in: ${next} with the session cookie answered ${page.status}`);
  return {
    cookie: session,
    steps: { login: login.status, authorize: authorize.status, callback: callback.status, page: page.status },
  };
}
