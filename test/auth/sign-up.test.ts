import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { countSignUp, SIGN_UP_LIMITS } from "../../src/auth/attempt-limits.ts";
import { FIRST_STEPS_FILENAME } from "../../src/auth/first-steps.ts";
import { inviteCodeHash } from "../../src/auth/invites.ts";
import { createWorkshop } from "../../src/auth/workshops.ts";
import { configFor } from "../../src/config.ts";
import app from "../../src/index.ts";
import { browserCall, ORIGIN } from "../chat/sign-in.ts";
import { BASE, call, mcpClient } from "../helpers.ts";
import { freshUsername, ownKey } from "./people-api.ts";

const OPERATOR = "dev-operator-key";

/** A sign-up as the sign-up page sends it, to a Weft whose `SIGNUP` is `mode` (wrangler.toml's "open" by default). */
async function signUp(
  body: Record<string, unknown>,
  { mode, address }: { mode?: "open" | "invite" | "closed"; address?: string } = {},
) {
  const headers = { "Content-Type": "application/json", Origin: ORIGIN, ...(address ? { "CF-Connecting-IP": address } : {}) };
  const request = new Request(`${BASE}/api/workshops`, { method: "POST", headers, body: JSON.stringify(body) });
  const ctx = createExecutionContext();
  const res = await app.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    (mode ? { ...env, SIGNUP: mode } : env) as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  return {
    res,
    status: res.status,
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers loosely; the assertions are the check
    body: JSON.parse(text) as Record<string, any>,
    cookie: (res.headers.get("Set-Cookie") ?? "").split(";")[0] as string,
  };
}

const workshop = (extra: Record<string, unknown> = {}) => ({
  workshop_name: "新星服装厂",
  name: "刘老板",
  username: freshUsername("liu"),
  password: "new-star-2026",
  ...extra,
});

async function tenantCount(): Promise<number> {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM tenants").first<{ n: number }>())?.n ?? 0;
}

async function invite(): Promise<string> {
  const res = await call("/api/admin/invites", { key: OPERATOR, method: "POST", body: JSON.stringify({ note: "刘老板" }) });
  expect(res.status).toBe(201);
  return (await res.json<{ code: string }>()).code;
}

describe("signing a workshop up", () => {
  it("creates the workshop and its boss, signs the boss in, and starts it with empty bases, the shipped trees and a guide", async () => {
    const { status, body, cookie } = await signUp(workshop());
    expect(status).toBe(201);
    expect(body.user).toMatchObject({ name: "刘老板", role: "boss", tenant_name: "新星服装厂" });
    expect(body.workshop.id).toBe(body.user.tenant_id);
    expect((await browserCall("/api/auth/me", cookie)).status).toBe(200);

    const bases = (
      await (
        await browserCall("/api/knowledge-bases", cookie)
      ).json<{
        knowledge_bases: { name: string; type: string; document_count: number; id: string }[];
      }>()
    ).knowledge_bases;
    expect(bases.map((kb) => [kb.name, kb.type, kb.document_count]).sort()).toEqual([
      ["Weft 使用指南", "document", 1],
      ["常见问题", "faq", 0],
      ["车间资料", "document", 0],
    ]);
    const guide = bases.find((kb) => kb.name === "Weft 使用指南");
    const docs = await (await browserCall(`/api/knowledge-bases/${guide?.id}/documents`, cookie)).json<{
      documents: { filename: string; status: string }[];
    }>();
    expect(docs.documents).toMatchObject([{ filename: FIRST_STEPS_FILENAME, status: "ready" }]);
    const trees = await (await browserCall("/api/consult/trees", cookie)).json<{ trees: { id: string; scope: string }[] }>();
    expect(trees.trees.map((t) => t.id)).toContain("garment-defects");
    expect(trees.trees.every((t) => t.scope === "shipped")).toBe(true);

    // The guide answers the boss's first question, and the workshop has none of the demo's records.
    const client = await mcpClient(await ownKey(cookie));
    const found = await client.callTool({ name: "knowledge_search", arguments: { query: "怎么给员工开账号", top_k: 1 } });
    // The passage once, in the structured content; the text cites it.
    expect(JSON.stringify(found.structuredContent)).toContain("设置密码的链接");
    const records = await client.callTool({ name: "query_piece_records", arguments: { period: "this_month" } });
    expect(records.isError).toBeFalsy();
    expect(records.structuredContent).toMatchObject({ records: [], totals: { records: 0, pieces: 0 } });
  });

  it("refuses a username someone has, whatever its case or width, and creates nothing", async () => {
    const before = await tenantCount();
    const { status, body } = await signUp(workshop({ username: "ＢＯＳＳ" }));
    expect(status).toBe(409);
    expect(body.error.message).toContain("'boss' is taken");
    expect(await tenantCount()).toBe(before);
  });

  it("creates one workshop when two sign up with one username at once", async () => {
    const username = freshUsername("twin");
    const before = await tenantCount();
    const results = await Promise.all([signUp(workshop({ username })), signUp(workshop({ username }))]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await tenantCount()).toBe(before + 1);
  });

  it("refuses a weak password and an unprintable workshop name, naming the field", async () => {
    const weak = await signUp(workshop({ password: "12345678" }));
    expect(weak.status).toBe(400);
    expect(weak.body.error.message).toContain("password: it is one of the most common passwords");
    const name = await signUp(workshop({ workshop_name: "新星\u0007" }));
    expect(name.status).toBe(422);
    expect(name.body.error.message).toContain("workshop_name");
  });

  it("takes no sign-up when the deployment is closed", async () => {
    const before = await tenantCount();
    const { status, body } = await signUp(workshop(), { mode: "closed" });
    expect(status).toBe(403);
    expect(body.error.message).toContain("does not sign new workshops up");
    expect(await tenantCount()).toBe(before);
  });

  it("takes a one-time code from the operator when the deployment signs up by invitation", async () => {
    expect((await signUp(workshop(), { mode: "invite" })).status).toBe(400);
    expect((await signUp(workshop({ invite_code: "AAAAA-AAAAA-AAAAA-AAAAA" }), { mode: "invite" })).status).toBe(403);
    const code = await invite();
    // Typed by hand: lower case, spaces for hyphens.
    const typed = code.toLowerCase().replace(/-/g, " ");
    const first = await signUp(workshop({ invite_code: typed }), { mode: "invite" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await signUp(workshop({ invite_code: code }), { mode: "invite" });
    expect(again.status).toBe(403);
    expect(again.body.error.message).toContain("unknown, used, revoked or expired");
    const { invites } = await (await call("/api/admin/invites", { key: OPERATOR })).json<{
      invites: { used_by_workshop: string | null; used_at: string | null }[];
    }>();
    expect(invites[0]).toMatchObject({ used_by_workshop: first.body.workshop.id });
  });

  it("lets one workshop sign up when two use one invite code at once", async () => {
    const code = await invite();
    const results = await Promise.all([
      signUp(workshop({ invite_code: code }), { mode: "invite" }),
      signUp(workshop({ invite_code: code }), { mode: "invite" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
  });

  it("counts sign-ups per address like sign-ins", async () => {
    const address = "198.51.100.77";
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_UP_LIMITS.perAddress; i++)
      statuses.push((await signUp(workshop({ password: "x" }), { address })).status);
    // Malformed sign-ups are refused before they count; these are well formed.
    for (let i = 0; i <= SIGN_UP_LIMITS.perAddress; i++) statuses.push((await signUp(workshop(), { address })).status);
    expect(statuses.slice(0, SIGN_UP_LIMITS.perAddress + 1).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(SIGN_UP_LIMITS.perAddress + 1, -1).every((s) => s === 201)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("lets no single address use up everyone's sign-ups", async () => {
    for (let i = 0; i <= SIGN_UP_LIMITS.everyone; i++) {
      await countSignUp({ db: env.DB, address: "198.51.100.78" }).catch(() => undefined);
    }
    await expect(countSignUp({ db: env.DB, address: "198.51.100.78" })).rejects.toThrow(/Too many sign-ups/);
    await expect(countSignUp({ db: env.DB, address: "203.0.113.9" })).resolves.toBeUndefined();
  });

  it("refuses a sign-up posted from another site", async () => {
    const res = await call("/api/workshops", {
      method: "POST",
      headers: { Origin: "https://evil.example" },
      body: JSON.stringify(workshop()),
    });
    expect(res.status).toBe(403);
  });

  it("says whether the deployment takes sign-ups", async () => {
    expect(await (await call("/api/workshops/signup")).json()).toEqual({ signup: "open" });
  });
});

describe("a workshop whose start fails", () => {
  it("leaves nothing behind, its directory rows and invite code included", async () => {
    const code = await invite();
    const codeHash = await inviteCodeHash(code);
    const config = configFor(env);
    // Embeddings that fail: the guide's ingestion, the last step of the start, throws.
    const broken = { ...env, AI: { run: () => Promise.reject(new Error("Workers AI is down")) } } as unknown as Env;
    const username = freshUsername("broken");
    await expect(
      createWorkshop({
        env: broken,
        config: { ...config, backends: { ...config.backends, embeddings: "workers-ai" } },
        db: env.DB,
        workshopName: "半途",
        boss: { name: "半途老板", username, passwordHash: "x" },
        inviteCodeHash: codeHash,
      }),
    ).rejects.toThrow();
    const left = await env.DB.batch([
      env.DB.prepare("SELECT COUNT(*) AS n FROM tenants WHERE name = '半途'"),
      env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE username = ?1").bind(username),
      env.DB.prepare(
        "SELECT COUNT(*) AS n FROM knowledge_bases kb WHERE NOT EXISTS (SELECT 1 FROM tenants t WHERE t.id = kb.tenant_id)",
      ),
      env.DB.prepare("SELECT COUNT(*) AS n FROM invite_codes WHERE code_hash = ?1 AND used_at IS NULL").bind(codeHash),
    ]);
    expect(left.map((r) => (r.results[0] as { n: number }).n)).toEqual([0, 0, 0, 1]);
    // The freed code still signs a workshop up.
    expect((await signUp(workshop({ invite_code: code }), { mode: "invite" })).status).toBe(201);
  });
});
