import { DurableObject } from "cloudflare:workers";
import { failure, type RpcFailure, type RpcResult, success } from "../rpc-result.ts";
import type { UserContext } from "../user-context.ts";
import { type Catalog, navigate, type SessionRecord, type SessionView, viewOf } from "./engine.ts";
import type { Tree } from "./tree-schema.ts";

interface Meta {
  owner: Pick<UserContext, "tenantId" | "userId">;
  order: string[];
  createdAt: string;
  updatedAt: string;
  ttlSeconds: number;
}

interface Tombstone {
  owner: Meta["owner"];
  expiredAt: string;
}

export interface SessionInspection {
  view: SessionView;
  record: SessionRecord;
  trees: { id: string; title: string; version: string }[];
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

// How long an expired session is remembered (as a few bytes) so that callers learn it expired
// rather than that it never existed.
const TOMBSTONE_SECONDS = 7 * 24 * 3600;

/**
 * One guided consultation. The Durable Object runs one call at a time, so concurrent navigations
 * apply in order; an alarm frees its storage after the idle time. Failures are returned as
 * values (`RpcResult`), since errors lose their type across RPC.
 */
export class ConsultSession extends DurableObject<Env> {
  /** Creates the session with a snapshot of the trees it may visit. */
  async start(input: {
    owner: Meta["owner"];
    catalog: Catalog;
    record: SessionRecord;
    ttlSeconds: number;
  }): Promise<RpcResult<SessionView>> {
    const now = new Date().toISOString();
    const meta: Meta = {
      owner: input.owner,
      order: input.catalog.order,
      createdAt: now,
      updatedAt: now,
      ttlSeconds: input.ttlSeconds,
    };
    // Object.fromEntries defines own properties, so no tree id can reach the object's prototype.
    const entries = Object.fromEntries<unknown>([
      ["meta", meta],
      ["record", input.record],
      ...input.catalog.order.map((id) => [`tree:${id}`, input.catalog.trees.get(id)] as const),
    ]);
    await this.ctx.storage.put(entries);
    await this.ctx.storage.setAlarm(Date.now() + input.ttlSeconds * 1000);
    return success(viewOf(input.catalog, input.record));
  }

  /** Moves along one option (or back, end, free text) for the session's owner. */
  async navigate(input: { owner: Meta["owner"]; optionId: string; userInput?: string }): Promise<RpcResult<SessionView>> {
    const loaded = await this.load(input.owner);
    if (!loaded.ok) return loaded;
    const { meta, record, catalog } = loaded;
    if (record.complete) {
      return failure("session_complete", "This consultation is already complete. Start a new one with initiate_session.");
    }
    const now = new Date().toISOString();
    const result = navigate(catalog, record, input.optionId, input.userInput, now);
    if (!result.ok) return failure(result.code, result.message);
    await this.ctx.storage.put({ record: result.record, meta: { ...meta, updatedAt: now } });
    await this.ctx.storage.setAlarm(Date.now() + meta.ttlSeconds * 1000);
    return success(viewOf(catalog, result.record, result.notice));
  }

  /** The full state and path, for the owner only. */
  async inspect(owner: Meta["owner"]): Promise<RpcResult<SessionInspection>> {
    const loaded = await this.load(owner);
    if (!loaded.ok) return loaded;
    const { meta, record, catalog } = loaded;
    return success({
      view: viewOf(catalog, record),
      record,
      trees: meta.order.map((id) => {
        const tree = catalog.trees.get(id) as Tree;
        return { id, title: tree.title, version: tree.version };
      }),
      createdAt: meta.createdAt,
      updatedAt: meta.updatedAt,
      expiresAt: new Date(Date.parse(meta.updatedAt) + meta.ttlSeconds * 1000).toISOString(),
    });
  }

  /**
   * Empties this session for good, when the workshop it belongs to is deleted. Another workshop's
   * session is left alone.
   */
  async purge(tenantId: string): Promise<void> {
    const meta = await this.ctx.storage.get<Meta>("meta");
    const tombstone = meta ? null : await this.ctx.storage.get<Tombstone>("expired");
    const owner = meta?.owner ?? tombstone?.owner;
    if (owner && owner.tenantId !== tenantId) return;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    const meta = await this.ctx.storage.get<Meta>("meta");
    if (!meta) {
      // Only a tombstone (or nothing) is left: forget the session entirely.
      await this.ctx.storage.deleteAll();
      return;
    }
    const due = Date.parse(meta.updatedAt) + meta.ttlSeconds * 1000;
    if (Date.now() < due) {
      await this.ctx.storage.setAlarm(due);
      return;
    }
    await this.ctx.storage.deleteAll();
    await this.ctx.storage.put<Tombstone>("expired", { owner: meta.owner, expiredAt: new Date().toISOString() });
    await this.ctx.storage.setAlarm(Date.now() + TOMBSTONE_SECONDS * 1000);
  }

  private async load(
    owner: Meta["owner"],
  ): Promise<{ ok: true; meta: Meta; record: SessionRecord; catalog: Catalog } | RpcFailure> {
    const unknown = failure(
      "session_unknown",
      "No such consultation session. Check the session_id, or start a new one with initiate_session.",
    );
    const meta = await this.ctx.storage.get<Meta>("meta");
    if (!meta) {
      const tombstone = await this.ctx.storage.get<Tombstone>("expired");
      if (tombstone && sameOwner(tombstone.owner, owner)) {
        return failure(
          "session_expired",
          `This consultation expired after being idle (at ${tombstone.expiredAt}). Start a new one with initiate_session.`,
        );
      }
      return unknown;
    }
    // Another person's session is indistinguishable from one that does not exist.
    if (!sameOwner(meta.owner, owner)) return unknown;
    const stored = await this.ctx.storage.get<unknown>(["record", ...meta.order.map((id) => `tree:${id}`)]);
    const catalog: Catalog = {
      order: meta.order,
      trees: new Map(meta.order.map((id) => [id, stored.get(`tree:${id}`) as Tree])),
    };
    return { ok: true, meta, record: stored.get("record") as SessionRecord, catalog };
  }
}

function sameOwner(a: Meta["owner"], b: Meta["owner"]): boolean {
  return a.tenantId === b.tenantId && a.userId === b.userId;
}
