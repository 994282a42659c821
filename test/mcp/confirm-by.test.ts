import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/sha256.ts";
import { keyConfirmingBy } from "../auth/credentials.ts";
import { browserCall } from "../chat/sign-in.ts";
import { keys, logins } from "../fixtures.ts";
import { ORIGIN, tokensFor } from "../oauth/browser.ts";
import { errorText, type RoundResult, written } from "./elicitation-rounds.ts";

// Issue 39, F1: a client that claims it can ask its person must not thereby confirm its own
// writes. Who may say yes is the choice of the person who owns the key or the app (`confirm_by`).

const OWN = { process: "上袖子", quantity: 20 };
const ACCEPT = { confirm: { action: "accept", content: {} } };
const FORM = { elicitation: { form: {} } };

/** A 2026-07-28 `tools/call` of prepare_piece_record at `origin`, with a bearer credential. */
async function call2026(
  credential: string,
  extra: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = FORM,
  origin = "http://weft.test",
): Promise<RoundResult> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "f1-probe", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const res = await exports.default.fetch(
    new Request(`${origin}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${credential}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "prepare_piece_record",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "prepare_piece_record", arguments: OWN, ...extra, _meta },
      }),
    }),
  );
  const body = await res.json<{ result?: RoundResult; error?: unknown }>();
  if (!body.result) throw new Error(`${res.status} ${JSON.stringify(body.error)}`);
  return body.result;
}

async function auditOf(actionId: string) {
  return env.DB.prepare(
    "SELECT confirmed_via, credential, user_name, shown_text, shown_sha256 FROM business_audit WHERE action_id = ?1",
  )
    .bind(actionId)
    .first<{ confirmed_via: string; credential: string; user_name: string; shown_text: string; shown_sha256: string }>();
}

/** The F1 sequence: a first call declaring form elicitation, then the same call "accepted" with whatever state it got. */
async function f1(credential: string, origin?: string) {
  const first = await call2026(credential, {}, FORM, origin);
  const second = await call2026(
    credential,
    { inputResponses: ACCEPT, requestState: first.requestState ?? "v1.forged.state" },
    FORM,
    origin,
  );
  return { first, second };
}

describe("F1: who may say yes, whatever the client claims", () => {
  it("refuses the two-request sequence with a weft key (dev-staff-key): no form is offered, and the accept writes nothing", async () => {
    const { first, second } = await f1(keys.staff);
    expect(first.resultType ?? "complete").toBe("complete");
    const pending = first.structuredContent as { status: string; action_id: string; confirm_url: string };
    expect(pending).toMatchObject({ status: "pending", confirm_url: `http://weft.test/actions/${pending.action_id}` });
    expect(first.content?.[0]?.text).toContain("confirmed on Weft's own page only (its owner's setting, confirm_by: weft)");
    expect(errorText(second)).toMatch(/^request_state_invalid/);
    expect(await written(pending.action_id)).toBe(0);
    expect(await auditOf(pending.action_id)).toBeNull();
  });

  it("refuses an accept of a form its key was asked before its owner chose weft, giving the confirm page", async () => {
    const { key, id, cookie } = await keyConfirmingBy(logins.staff, "client");
    const first = await call2026(key);
    expect(first.resultType).toBe("input_required");
    const changed = await browserCall(`/api/keys/${id}`, cookie, {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ confirm_by: "weft" }),
    });
    expect(changed.status).toBe(200);
    const second = await call2026(key, { inputResponses: ACCEPT, requestState: first.requestState });
    expect(errorText(second)).toMatch(/^confirmation_required: .*\/actions\/[0-9a-f]{64}.*Weft's own page/);
    const actionId = /actions\/([0-9a-f]{64})/.exec(errorText(second))?.[1] ?? "";
    expect(await written(actionId)).toBe(0);
  });

  it("offers a URL elicitation, the confirm page, to a weft key whose client opens URLs", async () => {
    const first = await call2026(keys.staff, {}, { elicitation: { form: {}, url: {} } });
    expect(first.resultType).toBe("input_required");
    const asked = first.inputRequests?.confirm?.params;
    expect(asked?.mode).toBe("url");
    expect(asked?.url).toMatch(/^http:\/\/weft\.test\/actions\/[0-9a-f]{64}\?via=url_elicitation$/);
  });

  it("accepts the same sequence with a key its owner set to client, and the audit says so, with what was shown", async () => {
    const { key } = await keyConfirmingBy(logins.staff, "client");
    const { first, second } = await f1(key);
    expect(first.resultType).toBe("input_required");
    const shown = first.inputRequests?.confirm?.params.message ?? "";
    expect(second.structuredContent).toMatchObject({ status: "confirmed", result: { quantity: 20 } });
    const actionId = (second.structuredContent as { action_id: string }).action_id;
    expect(await written(actionId)).toBe(1);
    expect(await auditOf(actionId)).toEqual({
      confirmed_via: "form_elicitation",
      credential: key.slice(0, 12),
      user_name: "李娟",
      shown_text: shown,
      shown_sha256: await sha256Hex(shown),
    });
  });

  it("refuses the sequence for an OAuth app connected with the default (weft), and accepts it for one set to client", async () => {
    const weft = (await tokensFor({ ...logins.staff, access: "write" })).tokens.access_token;
    const refused = await f1(weft, ORIGIN);
    expect(refused.first.resultType ?? "complete").toBe("complete");
    const pending = refused.first.structuredContent as { action_id: string };
    expect(errorText(refused.second)).toMatch(/^request_state_invalid/);
    expect(await written(pending.action_id)).toBe(0);

    const client = (await tokensFor({ ...logins.staff, access: "write", confirmBy: "client" })).tokens.access_token;
    const accepted = await f1(client, ORIGIN);
    expect(accepted.first.resultType).toBe("input_required");
    const actionId = (accepted.second.structuredContent as { action_id: string }).action_id;
    expect(accepted.second.structuredContent).toMatchObject({ status: "confirmed" });
    expect(await written(actionId)).toBe(1);
    expect(await auditOf(actionId)).toMatchObject({ confirmed_via: "form_elicitation", credential: "Raw Client" });
  });

  it("lets an app whose person chose agent confirm with confirm_action, and refuses it for the others", async () => {
    const agent = (await tokensFor({ ...logins.staff, access: "write", confirmBy: "agent" })).tokens.access_token;
    const pending = (await call2026(agent, {}, {}, ORIGIN)).structuredContent as { action_id: string };
    const confirm = (token: string, actionId: string) =>
      exports.default.fetch(
        new Request(`${ORIGIN}/mcp`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "confirm_action", arguments: { action_id: actionId } },
          }),
        }),
      );
    const done = await (await confirm(agent, pending.action_id)).json<{ result: RoundResult }>();
    expect(done.result.structuredContent).toMatchObject({ status: "confirmed" });
    expect(await auditOf(pending.action_id)).toMatchObject({ confirmed_via: "agent_key", credential: "Raw Client" });

    const client = (await tokensFor({ ...logins.staff, access: "write", confirmBy: "client" })).tokens.access_token;
    const other = (await call2026(client, {}, {}, ORIGIN)).structuredContent as { action_id: string };
    const refused = await (await confirm(client, other.action_id)).json<{ result: RoundResult }>();
    expect(errorText(refused.result)).toMatch(/^confirmation_required/);
    expect(await written(other.action_id)).toBe(0);
  });

  it("tells the agent what its credential allows, in tool descriptions and in the record-pieces prompt", async () => {
    const described = async (key: string) => {
      const list = await exports.default.fetch(
        new Request("http://weft.test/mcp", {
          method: "POST",
          headers: {
            Authorization: `Bearer ${key}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
      );
      const { result } = await list.json<{ result: { tools: { name: string; description: string }[] } }>();
      return (name: string) => result.tools.find((t) => t.name === name)?.description ?? "";
    };
    const staff = await described(keys.staff);
    expect(staff("prepare_piece_record")).toContain("on Weft's confirm page (confirm_url), signed in; confirm_action is refused");
    expect(staff("knowledge_search")).not.toContain("confirm_action is refused");
    const boss = await described(keys.boss);
    expect(boss("confirm_action")).toContain("you may call confirm_action yourself");

    const prompt = async (key: string) => {
      const res = await exports.default.fetch(
        new Request("http://weft.test/mcp", {
          method: "POST",
          headers: {
            Authorization: `Bearer ${key}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "prompts/get",
            params: { name: "task.record-pieces", arguments: { employee: "张三", process: "上领子", quantity: "50" } },
          }),
        }),
      );
      const { result } = await res.json<{ result: { messages: { content: { text: string } }[] } }>();
      return result.messages[0]?.content.text ?? "";
    };
    expect(await prompt(keys.boss)).toContain("我说“确认”之后再调用 confirm_action");
    const weftPrompt = await prompt(keys.staff);
    expect(weftPrompt).toContain("把预览里的确认链接（confirm_url）给我");
    expect(weftPrompt).toContain("不要调用 confirm_action");
  });
});
