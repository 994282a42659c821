import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const stateDir = inject("stateDir");

function run(script: string, args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [script, ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
}

describe("npm run keys:create-admin", () => {
  it("creates a workshop's first admin whose key, shown once, works at once", async () => {
    const result = run("scripts/create-admin.ts", ["--tenant-id", "t-e2e", "--tenant-name", "测试车间", "--name", "管理员"], {
      WEFT_STATE_DIR: stateDir,
    });
    expect(result.status, result.stderr).toBe(0);
    const key = /API key \(shown once, store it now\): (wft_\S+)/.exec(result.stdout)?.[1];
    expect(key).toBeDefined();
    const res = await fetch(`${baseUrl}/api/keys`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const { keys } = (await res.json()) as { keys: { prefix: string }[] };
    expect(keys.map((k) => k.prefix)).toEqual([key?.slice(0, 12)]);
  });
});

describe("npm run operator:create", () => {
  it("creates an operator key, shown once, that lists the workshops and is refused anywhere else", async () => {
    const result = run("scripts/create-operator.ts", ["--name", "e2e operator"], { WEFT_STATE_DIR: stateDir });
    expect(result.status, result.stderr).toBe(0);
    const key = /Operator key \(shown once, store it now\): (wop_[A-Za-z0-9_-]{32})/.exec(result.stdout)?.[1];
    expect(key).toBeDefined();
    const res = await fetch(`${baseUrl}/api/admin/workshops`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const { workshops } = (await res.json()) as { workshops: { name: string; people: number }[] };
    expect(workshops.find((w) => w.name === "锦绣制衣")?.people).toBeGreaterThanOrEqual(4);
    expect((await fetch(`${baseUrl}/api/keys`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(401);
  });
});

describe("npm run knowledge:push", () => {
  it("uploads the trees in knowledge/trees to a running Weft with an admin key", () => {
    const result = run("scripts/knowledge-push.ts", [], { WEFT_URL: baseUrl, WEFT_ADMIN_KEY: "dev-admin-key" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Uploaded: .*garment-defects@[0-9a-f]{12}/);
  });

  it("is refused, and says so, with a key that is not an admin's", () => {
    const result = run("scripts/knowledge-push.ts", [], { WEFT_URL: baseUrl, WEFT_ADMIN_KEY: "dev-boss-key" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Refused: garment-defects.yaml");
    expect(result.stderr).toContain("admin");
  });
});

describe("the UI build npm run dev runs first", () => {
  it("builds into a dist/ that does not exist yet, as on a fresh clone, and leaves no staging folder", () => {
    const root = mkdtempSync(join(tmpdir(), "weft-fresh-"));
    try {
      const served = join(root, "dist", "web");
      const build = `import("./scripts/build-web.ts").then((m) => m.buildWeb({ served: ${JSON.stringify(served)} }))`;
      const result = run("--input-type=module", ["-e", build], {});
      expect(result.status, result.stderr).toBe(0);
      expect(readFileSync(join(served, "index.html"), "utf8")).toContain('<div id="root">');
      expect(readdirSync(join(root, "dist"))).toEqual(["web"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
