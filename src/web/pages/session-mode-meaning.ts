/** What a turn's session mode means, in words for the timeline. */
export function sessionModeMeaning(mode: string | null): string {
  switch (mode) {
    case "started":
      return "started a new session (first turn, asked fresh, or none stored)";
    case "resumed":
      return "resumed the role's session";
    case "fallback":
      return "could not resume: ran in a new session";
    case "rollover":
      return "the session outgrew its budget: started a new one";
    case "cold":
      return "ran without a stored session (the agent cannot resume, or the store was unavailable)";
    case null:
      return "still starting";
    default:
      return "unknown mode";
  }
}
