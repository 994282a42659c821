// SQL text for the scripts that write rows through `wrangler d1 execute`, which takes no parameters.

/** A SQL string literal: single quotes doubled. */
export function sqlQuote(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
