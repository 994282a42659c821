import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The browser UI: built from src/web into dist/web, which wrangler.toml serves as static assets.
export default defineConfig({
  root: "src/web",
  plugins: [react()],
  build: { outDir: "../../dist/web", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
