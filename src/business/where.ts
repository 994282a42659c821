/**
 * A SQL `WHERE` built from filters, every value a numbered parameter (never text in the SQL).
 *
 * @example const w = new Where(); w.add(`tenant_id = ${w.param(tenantId)}`); db.prepare(`... WHERE ${w.sql}`).bind(...w.params)
 */
export class Where {
  readonly clauses: string[] = [];
  readonly params: (string | number)[] = [];

  /** Adds a value and returns its placeholder. */
  param(value: string | number): string {
    this.params.push(value);
    return `?${this.params.length}`;
  }

  add(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  get sql(): string {
    return this.clauses.length ? this.clauses.join(" AND ") : "1 = 1";
  }

  /** A copy to extend (say, with a page cursor) without changing this one. */
  copy(): Where {
    const next = new Where();
    next.clauses.push(...this.clauses);
    next.params.push(...this.params);
    return next;
  }
}
