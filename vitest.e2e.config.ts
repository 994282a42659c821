import { defineConfig } from "vitest/config";

// End-to-end tests run in Node against a real `npm run dev` on a free port.
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["./test/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
