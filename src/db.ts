/** Runs an `INSERT/UPDATE ... RETURNING` that must produce a row; a missing row is a bug, not user error. */
export async function returningRow<T>(statement: D1PreparedStatement): Promise<T> {
  const row = await statement.first<T>();
  if (!row) throw new Error("statement with RETURNING produced no row");
  return row;
}
