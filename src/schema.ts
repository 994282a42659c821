/**
 * The D1 migrations this code expects on every database (the directory and each shard), in order.
 * test/migrations.test.ts holds the list to the files in migrations/, so adding a migration without
 * naming it here fails `npm test`.
 */
export const MIGRATIONS = [
  "0001_tenants_users_api_keys.sql",
  "0002_knowledge_bases.sql",
  "0003_consult_trees.sql",
  "0004_documents_chunks.sql",
  "0005_consult_trees_per_workshop.sql",
  "0006_business.sql",
  "0007_synonyms_faq.sql",
  "0008_web_sign_in_and_chats.sql",
  "0009_mcp_servers.sql",
  "0010_mcp_oauth_refresh_lease.sql",
  "0011_synonym_set_versions.sql",
  "0012_orders_by_creation_day.sql",
  "0013_oauth_connections.sql",
  "0014_confirmation_paths.sql",
  "0015_mcp_tool_errors.sql",
  "0016_audit_summary.sql",
  "0017_confirm_by.sql",
  "0018_audit_shown.sql",
  "0019_people.sql",
  "0021_document_jobs.sql",
  "0022_chunk_locations.sql",
  "0024_workshop_data_apart_from_people.sql",
  "0025_workshop_moves.sql",
  "0026_workshop_objects.sql",
  "0028_business_setup.sql",
  "0030_chat_reply_versions.sql",
  "0031_chat_feedback.sql",
] as const;

/** The expected migrations a database has not applied, given the names it has (`d1_migrations`). */
export function missingMigrations(applied: readonly string[]): string[] {
  const have = new Set(applied);
  return MIGRATIONS.filter((name) => !have.has(name));
}
