import { defineConfig } from "vitest/config";

// The operations scripts (deploy, secrets rotation) run in Node against a stand-in for wrangler
// (test/scripts/fake-wrangler.mjs): no account, no network, a few seconds.
export default defineConfig({
  test: {
    include: ["test/scripts/**/*.test.ts"],
    testTimeout: 60_000,
    // The files mostly wait on the scripts and wrangler stand-ins they start.
    maxWorkers: "100%",
  },
});
