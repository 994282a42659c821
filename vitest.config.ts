import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { demoSeedStatements } from "./scripts/demo-data.ts";

// The shipped trees, read here in Node because tests run inside workerd without a file system.
const trees = readdirSync("./knowledge/trees")
  .filter((f) => /\.(json|ya?ml)$/.test(f))
  .map((file_name) => ({ file_name, content: readFileSync(`./knowledge/trees/${file_name}`, "utf8") }));
// Trees the engine's tests use besides the shipped ones (a second topic, English triggers); never shipped.
const testTrees = readdirSync("./test/consult/trees").map((file_name) => ({
  file_name,
  content: readFileSync(`./test/consult/trees/${file_name}`, "utf8"),
}));

// The README and docs/ pages, and the npm scripts they may name, for test/docs.test.ts.
const docs = [
  "README.md",
  ...readdirSync("./docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
].map((path) => ({
  path,
  content: readFileSync(path, "utf8"),
}));
const npmScripts = Object.keys(JSON.parse(readFileSync("./package.json", "utf8")).scripts);
// The project's files and folders (a folder with a trailing slash) the pages may name, and what git ignores.
const repoPaths = ["src", "scripts", "test", "knowledge", "migrations", "docs"].flatMap((root) => [
  `${root}/`,
  ...readdirSync(root, { recursive: true, withFileTypes: true }).map((entry) => {
    const path = join(entry.parentPath, entry.name);
    return entry.isDirectory() ? `${path}/` : path;
  }),
]);
const gitIgnored = readFileSync("./.gitignore", "utf8").split("\n").filter(Boolean);
// The knowledge `npm run dev` loads (one base a folder of knowledge/docs, one FAQ base a file of
// knowledge/faq), for tests that follow the README with it.
const knowledgeDocs = readdirSync("./knowledge/docs").flatMap((kb) =>
  readdirSync(`./knowledge/docs/${kb}`)
    .filter((f) => /\.(md|txt|html?)$/.test(f))
    .map((filename) => ({ kb, filename, content: readFileSync(`./knowledge/docs/${kb}/${filename}`, "utf8") })),
);
const knowledgeFaqs = readdirSync("./knowledge/faq")
  .filter((f) => f.endsWith(".json"))
  .map((file) => ({ name: file.replace(/\.json$/, ""), ...JSON.parse(readFileSync(`./knowledge/faq/${file}`, "utf8")) }));

// The workshop files made by third-party tools (test/files/make.ts), as base64, for the upload tests.
const workshopFiles = Object.fromEntries(
  readdirSync("./test/files")
    .filter((f) => !f.endsWith(".ts"))
    .map((f) => [f, readFileSync(`./test/files/${f}`).toString("base64")]),
);

// wrangler.toml serves the built UI from dist/web; the Worker tests need the folder, not the build.
mkdirSync("./dist/web", { recursive: true });
// A fixed key for tests only; `npm run dev` and production each have their own.
const TEST_SECRETS_KEY = "dGVzdC1vbmx5LWtleS1mb3Itd2VmdC1mZWRlcmF0aW9uIQ==";
// Wrangler checks required secrets in the environment before the bindings below apply; this keeps
// its "missing secret" warning out of every test file's output.
process.env.MCP_SECRETS_KEY ??= TEST_SECRETS_KEY;

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  // Computed once here rather than in every test file: hashing the demo passwords is most of it.
  const seed = await demoSeedStatements();
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // Empty databases of their own: for tests of one migration against data made before it, and
          // for a backup's restore (test/backup.test.ts).
          d1Databases: {
            MIGRATION_TEST_DB: "migration-test",
            RESTORE_DB: "restore-db",
            RESTORE_SHARD_1: "restore-shard-1",
            RESTORE_SHARD_2: "restore-shard-2",
          },
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_SEED: seed,
            TEST_TREES: trees,
            TEST_CONSULT_TREES: testTrees,
            TEST_DOCS: docs,
            TEST_NPM_SCRIPTS: npmScripts,
            TEST_REPO_PATHS: repoPaths,
            TEST_GIT_IGNORED: gitIgnored,
            TEST_KNOWLEDGE_DOCS: knowledgeDocs,
            TEST_KNOWLEDGE_FAQS: knowledgeFaqs,
            TEST_FILES: workshopFiles,
            ENVIRONMENT: "test",
            // Test requests go to http://weft.test (test/helpers.ts).
            ALLOWED_HOSTS: "weft.test,localhost,127.0.0.1,[::1]",
            MCP_SECRETS_KEY: TEST_SECRETS_KEY,
            MCP_CALL_TIMEOUT_MS: "1500",
            // As behind Cloudflare's edge, so tests can speak from many addresses;
            // test/auth/client-address.test.ts runs the wrangler dev default.
            TRUST_CLIENT_IP_HEADER: "true",
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**", "test/scripts/**"],
      setupFiles: ["./test/setup.ts"],
      // One runtime per worker, reused across files: module loading, not the tests, was most of the
      // time. Each file still starts from the same prepared storage (test/setup.ts).
      isolate: false,
      // A worker a core: the tests' work is done in workerd, not in vitest's own process, which
      // vitest's default (a core fewer) keeps a core for. Each worker has its own runtime and storage.
      maxWorkers: "100%",
      // Weft's JSON log lines (expected failures logged on purpose) are not test output; a test
      // that asserts on logs spies on the console, which this does not affect.
      onConsoleLog: (line: string) => !line.startsWith('{"level":'),
    },
  };
});
