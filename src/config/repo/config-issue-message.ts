import type { z } from "zod";

type Issue = z.core.$ZodIssue;

/**
 * What is wrong with a setting, in words a maintainer can act on: a setting that takes one of a few
 * values lists them (zod says only "Invalid input" when they come from several options, e.g. a severity or
 * `never`); anything else keeps zod's own message.
 */
export function configIssueMessage(issue: Issue): string {
  const expected = expectedOf(issue);
  return expected ?? issue.message;
}

/** `expected one of: a, b` (or `expected a number or one of: never`); undefined when the issue is not about the value's kind. */
function expectedOf(issue: Issue): string | undefined {
  const forms = allowedForms(issue);
  if (!forms) return undefined;
  const kinds = forms.kinds.map((k) => `a ${k}`);
  const values = forms.values.map(String);
  if (values.length === 0) return `expected ${kinds.join(" or ")}`;
  const listed = values.length === 1 ? values[0]! : `one of: ${values.join(", ")}`;
  return `expected ${[...kinds, listed].join(" or ")}`;
}

/** The values and kinds the setting accepts, gathered from every option of a union; undefined for other issues. */
function allowedForms(issue: Issue): { values: unknown[]; kinds: string[] } | undefined {
  if (issue.code === "invalid_value") return { values: [...issue.values], kinds: [] };
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return undefined;
  const values: unknown[] = [];
  const kinds: string[] = [];
  for (const option of issue.errors) {
    // an option that failed deeper inside (a field of an object) is not a list of values: zod's words stay
    if (option.length !== 1 || option[0]!.path.length > 0) return undefined;
    const [only] = option as [Issue];
    if (only.code === "invalid_type") kinds.push(only.expected);
    else {
      const inner = allowedForms(only);
      if (!inner) return undefined;
      values.push(...inner.values);
      kinds.push(...inner.kinds);
    }
  }
  return { values, kinds };
}
