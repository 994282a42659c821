import { AppError } from "../errors.ts";
import { LruMap } from "../lru-map.ts";
import { DEFAULT_SYNONYMS } from "./default-synonyms.ts";
import { normaliseGroups, Synonyms } from "./synonyms.ts";

/**
 * A workshop's synonym groups as stored and served, whether they are the shipped default, and
 * their version (0 until the workshop first changes them; one more with every stored change).
 */
export interface SynonymSettings {
  groups: string[][];
  is_default: boolean;
  version: number;
  updated_at: string | null;
}

interface SynonymRow {
  groups_json: string;
  is_default: number;
  version: number;
  updated_at: string;
}

const COLUMNS = "groups_json, is_default, version, updated_at";

function toSettings(row: SynonymRow | null): SynonymSettings {
  if (!row) return { groups: DEFAULT_SYNONYMS.map((g) => [...g]), is_default: true, version: 0, updated_at: null };
  if (row.is_default)
    return { groups: DEFAULT_SYNONYMS.map((g) => [...g]), is_default: true, version: row.version, updated_at: null };
  return {
    groups: JSON.parse(row.groups_json) as string[][],
    is_default: false,
    version: row.version,
    updated_at: row.updated_at,
  };
}

/** The workshop's synonym groups, or the shipped default when it has not set its own. */
export async function getSynonyms({ db, tenantId }: { db: D1Database; tenantId: string }): Promise<SynonymSettings> {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM synonym_sets WHERE tenant_id = ?1`).bind(tenantId).first<SynonymRow>();
  return toSettings(row);
}

/**
 * What identifies a stored synonym set, as SQL over `synonym_sets` for the workshop bound to ?1:
 * its version, time and size, or null while the workshop has no row (the shipped default). Every
 * stored change moves the version and the time, so a set compiled from a row with this stamp is
 * that row's. Search reads it in the statement it needs anyway (`scopeStatement`).
 */
export const SYNONYM_STAMP_SQL =
  "(SELECT version || '@' || updated_at || '@' || length(groups_json) FROM synonym_sets WHERE tenant_id = ?1)";

// Compiled sets by workshop, each with the stamp of the row it was compiled from: search would
// otherwise read, parse and compile the groups (a regular expression of every word) every time.
// 256 workshops at most; the shipped default is compiled once for all of them.
const compiled = new LruMap<string, { stamp: string | null; synonyms: Synonyms }>(256);
let shipped: Synonyms | undefined;

/** The shipped default groups compiled, shared by every workshop that has not set its own. */
function shippedSynonyms(): Synonyms {
  shipped ??= new Synonyms(DEFAULT_SYNONYMS.map((g) => [...g]));
  return shipped;
}

/** Reads what `compiledSynonyms` compiles, for a batch: the workshop's row and its stamp, if any. */
export function synonymRowStatement(db: D1Database, tenantId: string): D1PreparedStatement {
  return db.prepare(`SELECT ${COLUMNS}, ${SYNONYM_STAMP_SQL} AS stamp FROM synonym_sets WHERE tenant_id = ?1`).bind(tenantId);
}

/**
 * The workshop's synonym groups compiled for search, as stored at `stamp` (`SYNONYM_STAMP_SQL`,
 * read by the caller): the shipped default when there is no row (stamp null), from this isolate's
 * cache when it compiled that row already, else compiled from `read` (a `synonymRowStatement`'s
 * result the caller batched) or read now, at whatever the row holds by then, and kept.
 */
export async function compiledSynonyms({
  db,
  tenantId,
  stamp,
  read,
}: {
  db: D1Database;
  tenantId: string;
  stamp: string | null;
  read?: D1Result | undefined;
}): Promise<Synonyms> {
  if (stamp === null) return shippedSynonyms();
  const kept = compiled.get(tenantId);
  if (kept && kept.stamp === stamp) return kept.synonyms;
  const row = read
    ? ((read.results[0] as (SynonymRow & { stamp: string }) | undefined) ?? null)
    : await synonymRowStatement(db, tenantId).first<SynonymRow & { stamp: string }>();
  const synonyms = !row || row.is_default ? shippedSynonyms() : new Synonyms(toSettings(row).groups);
  compiled.set(tenantId, { stamp: row?.stamp ?? null, synonyms });
  return synonyms;
}

/**
 * Replaces the workshop's synonym groups (an empty list turns synonyms off).
 *
 * Like every write of the list, a compare-and-swap on the version it read: one statement that
 * applies only while the list is still at that version, so of writers racing from one version
 * exactly one is stored and the others get a 409 with the list as it stands. `ifVersion` (a
 * client's `If-Match`) makes the check reach back to when the client read the list.
 */
export async function putSynonyms({
  db,
  tenantId,
  groups,
  ifVersion,
}: {
  db: D1Database;
  tenantId: string;
  groups: readonly (readonly string[])[];
  ifVersion?: readonly number[] | undefined;
}): Promise<SynonymSettings> {
  const normalised = normaliseGroups(groups);
  return writeSynonyms({ db, tenantId, ifVersion, groupsJson: JSON.stringify(normalised), isDefault: false });
}

/** Goes back to the shipped default groups, with the same version check as `putSynonyms`. */
export async function resetSynonyms({
  db,
  tenantId,
  ifVersion,
}: {
  db: D1Database;
  tenantId: string;
  ifVersion?: readonly number[] | undefined;
}): Promise<SynonymSettings> {
  return writeSynonyms({ db, tenantId, ifVersion, groupsJson: "[]", isDefault: true });
}

async function writeSynonyms({
  db,
  tenantId,
  ifVersion,
  groupsJson,
  isDefault,
}: {
  db: D1Database;
  tenantId: string;
  ifVersion: readonly number[] | undefined;
  groupsJson: string;
  isDefault: boolean;
}): Promise<SynonymSettings> {
  const read = await getSynonyms({ db, tenantId });
  if (ifVersion && !ifVersion.includes(read.version)) throw stale(read, ifVersion);
  // Version 0 is no row, and a row is never deleted but with its workshop: the insert lands only if
  // there is still none, and the update only while the row is at the version read.
  const row = await db
    .prepare(
      `INSERT INTO synonym_sets (tenant_id, groups_json, is_default, version) SELECT ?1, ?2, ?3, 1 WHERE true
       ON CONFLICT (tenant_id) DO UPDATE SET groups_json = excluded.groups_json, is_default = excluded.is_default,
         version = synonym_sets.version + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE synonym_sets.version = ?4
       RETURNING ${COLUMNS}`,
    )
    .bind(tenantId, groupsJson, isDefault ? 1 : 0, read.version)
    .first<SynonymRow>();
  if (!row) throw overtaken(read, await getSynonyms({ db, tenantId }));
  return toSettings(row);
}

/** A 409 for a client whose `If-Match` names a version the list has moved on from, with the list as it is. */
function stale(current: SynonymSettings, ifVersion: readonly number[]): AppError {
  const sent = ifVersion.length > 0 ? ifVersion.map((v) => `"${v}"`).join(", ") : "no version Weft issued";
  return new AppError(
    "conflict",
    `The synonym groups were changed since you read them: they are at version ${current.version}, your If-Match names ${sent}. Nothing was saved; the groups as they now stand are in details.current. Apply your change to them and send it again with If-Match "${current.version}".`,
    { details: { current } },
  );
}

/** A 409 for a writer whose compare-and-swap found the list moved on while it was being written. */
function overtaken(read: SynonymSettings, current: SynonymSettings): AppError {
  return new AppError(
    "conflict",
    `Another change to the synonym groups was stored while yours was being written (version ${read.version} became ${current.version}), so yours was not. The groups as they now stand are in details.current; send your change again with If-Match "${current.version}" if it should win.`,
    { details: { current } },
  );
}
