/** PR bodies are cut to this many characters; an incremental turn has seen the PR before. */
export const BODY_LIMIT = { full: 8000, rewritten: 8000, incremental: 1000 } as const;
export const TITLE_LIMIT = 300;
export const FINDING_BODY_LIMIT = 300;
export const OMITTED_FILES_LIMIT = 100;
export const NOTES_LIMIT = 30;
export const CLOSED_LIMIT = 50;
export const SUMMARY_LIMIT = 2000;
