/**
 * "field: problem; other.field: problem": what a person or agent needs to fix a request. A problem
 * of the whole value (an unknown key, a wrong type) is named by `whole`: a REST body, a tool's arguments.
 */
export function describeIssues(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  whole = "(body)",
): string {
  return error.issues
    .slice(0, 20)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join(".") : whole}: ${issue.message}`)
    .join("; ");
}
