/**
 * The whole environment git runs with: nothing inherited but PATH, so no tokens, credential
 * helpers, proxies or user config leak in. HOME is /dev/null, which git (and libcurl looking for
 * ~/.netrc) treats as "no files here": the user's ~/.gitconfig, global ignores and attributes and
 * netrc credentials are never read. System and global config are skipped, prompts are off and the
 * askpass program answers nothing.
 */
export function gitEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: "/dev/null",
    LANG: "C",
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ASKPASS: "/bin/true",
    SSH_ASKPASS: "/bin/true",
  };
}
