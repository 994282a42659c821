/** "field: problem; other.field: problem": what a person or agent needs to fix a request. */
export function describeIssues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 20)
    .map((issue) => `${issue.path.length ? issue.path.map(String).join(".") : "(body)"}: ${issue.message}`)
    .join("; ");
}
