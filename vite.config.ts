import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const web = (file: string) => fileURLToPath(new URL(`./src/web/${file}`, import.meta.url));

// The browser UI: built from src/web into dist/web, which wrangler.toml serves as static assets.
export default defineConfig({
  root: "src/web",
  plugins: [react()],
  resolve: {
    // Three of Streamdown's dependencies replaced by what Weft needs of them, for phones on slow
    // data: each file says why it is enough (the Markdown test in test/e2e/web-bundle.test.ts).
    alias: {
      "rehype-raw": web("streamdown-html-as-text.ts"),
      "remark-gfm": web("streamdown-gfm.ts"),
      "tailwind-merge": web("streamdown-class-join.ts"),
    },
  },
  build: { outDir: "../../dist/web", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
