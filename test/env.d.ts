declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    MIGRATION_TEST_DB: D1Database;
    RESTORE_DB: D1Database;
    RESTORE_SHARD_1: D1Database;
    RESTORE_SHARD_2: D1Database;
    TEST_SEED: import("../scripts/demo-data.ts").DemoSeed;
    TEST_TREES: { file_name: string; content: string }[];
    TEST_CONSULT_TREES: { file_name: string; content: string }[];
    TEST_DOCS: { path: string; content: string }[];
    TEST_NPM_SCRIPTS: string[];
    TEST_REPO_PATHS: string[];
    TEST_GIT_IGNORED: string[];
    TEST_KNOWLEDGE_DOCS: { kb: string; filename: string; content: string }[];
    /** The files of test/files, by name, as base64. */
    TEST_FILES: Record<string, string>;
    TEST_KNOWLEDGE_FAQS: { name: string; description?: string; entries: Record<string, unknown>[] }[];
  }
}
