import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { demoSeedStatements } from "./scripts/demo-data.ts";

// The shipped trees, read here in Node because tests run inside workerd without a file system.
const trees = readdirSync("./knowledge/trees")
  .filter((f) => /\.(json|ya?ml)$/.test(f))
  .map((file_name) => ({ file_name, content: readFileSync(`./knowledge/trees/${file_name}`, "utf8") }));

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
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_SEED: seed,
            TEST_TREES: trees,
            ENVIRONMENT: "test",
            // Test requests go to http://weft.test (test/helpers.ts).
            ALLOWED_HOSTS: "weft.test,localhost,127.0.0.1,[::1]",
            MCP_SECRETS_KEY: TEST_SECRETS_KEY,
            MCP_CALL_TIMEOUT_MS: "1500",
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**"],
      setupFiles: ["./test/setup.ts"],
      // One runtime per worker, reused across files: module loading, not the tests, was most of the
      // time. Each file still starts from the same prepared storage (test/setup.ts).
      isolate: false,
      // Weft's JSON log lines (expected failures logged on purpose) are not test output; a test
      // that asserts on logs spies on the console, which this does not affect.
      onConsoleLog: (line: string) => !line.startsWith('{"level":'),
    },
  };
});
