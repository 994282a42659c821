import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// The shipped trees, read here in Node because tests run inside workerd without a file system.
const trees = readdirSync("./knowledge/trees")
  .filter((f) => /\.(json|ya?ml)$/.test(f))
  .map((file_name) => ({ file_name, content: readFileSync(`./knowledge/trees/${file_name}`, "utf8") }));

// wrangler.toml serves the built UI from dist/web; the Worker tests need the folder, not the build.
mkdirSync("./dist/web", { recursive: true });

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, TEST_TREES: trees, ENVIRONMENT: "test" } },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      exclude: ["test/e2e/**"],
      setupFiles: ["./test/setup.ts"],
    },
  };
});
