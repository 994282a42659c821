// The browser's client for Weft's REST routes: same-origin fetches carrying the session cookie.

import type {
  AdjustmentView,
  ApiKeySummary,
  AuditEntry,
  AuditRecord,
  ConfirmBy,
  EmployeeOption,
  EmployeeView,
  FeedbackRating,
  FeedbackView,
  ImportReport,
  MessageVersion,
  OAuthConnection,
  OrderView,
  PassageView,
  PasswordLinkView,
  PendingAction,
  PersonView,
  ProcessView,
  Role,
  ServerView,
  StyleView,
  ToolWordsView,
  WorkshopView,
} from "../shapes.ts";
import { ApiError, errorOf } from "./api-error.ts";
import type { BusinessChangeBody } from "./business-steps.ts";
import type { McpServerChanges } from "./server-changes.ts";

export type {
  AdjustmentView,
  AuditEntry,
  ConfirmBy,
  EmployeeOption,
  EmployeeView,
  ImportReport,
  OrderView,
  PasswordLinkView,
  PersonView,
  ProcessView,
  Role,
  StyleView,
  WorkshopView,
};

/** Who may create a workshop on this Weft (`SIGNUP`). */
export type SignupMode = "open" | "invite" | "closed";

/** A new workshop and its boss, as the sign-up page sends them. */
export interface NewWorkshop {
  workshop_name: string;
  name: string;
  username: string;
  password: string;
  invite_code?: string;
}

/** A new person, as the people settings send them. */
export interface NewPerson {
  name: string;
  username: string;
  role: Role;
  password?: string;
  employee_id?: string;
  new_employee?: true;
}

/** What a boss changes of a person. */
export interface PersonChanges {
  name?: string;
  role?: Role;
  active?: boolean;
  employee_id?: string | null;
  new_employee?: true;
}

/** Whose password a one-time link sets, as the set-password page greets them. */
export interface PasswordLinkHolder {
  name: string;
  username: string;
  workshop_name: string;
  expires_at: string;
}
export { ApiError };

export interface User {
  id: string;
  name: string;
  role: Role;
  tenant_id: string;
  tenant_name: string;
}

export interface ChatSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeBase {
  id: string;
  name: string;
  description: string;
  type: string;
  document_count: number;
}

/** A document of a knowledge base as its list shows it, with where its ingestion stands. */
export interface KnowledgeDocument {
  id: string;
  filename: string;
  title: string;
  status: string;
  chunk_count: number;
  error: string | null;
  error_reason: string | null;
  error_params: Record<string, string | number> | null;
  progress: { unit: string; done: number; total: number | null } | null;
}

export interface ModelInfo {
  id: string;
  offline: boolean;
  label: string;
}

/** An external MCP server as the settings show it: the server's own view of it. */
export type McpServer = ServerView;

export interface NewMcpServer {
  name: string;
  url: string;
  headers?: Record<string, string>;
  enabled: boolean;
  expose_on_mcp: boolean;
  auth: "headers" | "oauth";
}

/** An app someone allowed to reach `/mcp` for them over OAuth (`/api/oauth/connections`). */
export type Connection = OAuthConnection;

/** An API key as its lists show it (`/api/keys`). */
export type ApiKey = ApiKeySummary;

/** A new OAuth server's first sign-in: the provider's page to send the browser to, or why there is none. */
export type SignInStart = { authorization_url: string; error?: undefined } | { authorization_url?: undefined; error: string };

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers:
      body === undefined ? { Accept: "application/json" } : { Accept: "application/json", "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (an export, or a proxy's error page): keep the text.
  }
  if (!res.ok) throw errorOf(res.status, parsed, res.headers.get("Retry-After"));
  return parsed as T;
}

const enc = encodeURIComponent;

/** Every route the UI calls, in one place, shaped as the chat contract in the README describes. */
/** Where a person said yes, and the language the preview was shown in (the audit keeps the words they saw). */
export interface ConfirmSeen {
  via: "card" | "confirm_page" | "url_elicitation" | "settings";
  lang: "zh" | "en";
}

export const api = {
  me: () => request<{ user: User }>("GET", "/api/auth/me"),
  login: (username: string, password: string) => request<{ user: User }>("POST", "/api/auth/login", { username, password }),
  logout: () => request<unknown>("POST", "/api/auth/logout"),
  model: () => request<ModelInfo>("GET", "/api/chat/model"),
  toolWords: () => request<{ tools: ToolWordsView[] }>("GET", "/api/chat/tools"),
  knowledgeBases: () => request<{ knowledge_bases: KnowledgeBase[] }>("GET", "/api/knowledge-bases"),
  documents: (kbId: string) => request<{ documents: KnowledgeDocument[] }>("GET", `/api/knowledge-bases/${enc(kbId)}/documents`),
  /** Uploads one file as a browser form; the server's job reads it, so the answer comes before the reading ends. */
  uploadDocument: async (kbId: string, file: File) => {
    const form = new FormData();
    form.append("file", file);
    const res = await fetch(`/api/knowledge-bases/${enc(kbId)}/documents`, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json", Prefer: "respond-async" },
      body: form,
    });
    const body: unknown = await res.json().catch(() => undefined);
    if (!res.ok) throw errorOf(res.status, body, res.headers.get("Retry-After"));
    return body as { status: string; document: KnowledgeDocument };
  },
  passage: (kbId: string, chunkId: string) =>
    request<PassageView>("GET", `/api/knowledge-bases/${enc(kbId)}/passages/${enc(chunkId)}`),
  listChats: ({ q, cursor, limit = 30 }: { q?: string; cursor?: string; limit?: number }) => {
    const params = new URLSearchParams({ limit: String(limit) });
    if (q) params.set("q", q);
    if (cursor) params.set("cursor", cursor);
    return request<{ chats: ChatSummary[]; next_cursor: string | null }>("GET", `/api/chats?${params}`);
  },
  getChat: (id: string) => request<{ id: string; title: string; messages: unknown[] }>("GET", `/api/chats/${enc(id)}`),
  renameChat: (id: string, title: string) => request<unknown>("PATCH", `/api/chats/${enc(id)}`, { title }),
  deleteChat: (id: string) => request<unknown>("DELETE", `/api/chats/${enc(id)}`),
  getAction: (actionId: string) => request<PendingAction>("GET", `/api/actions/${enc(actionId)}`),
  /**
   * Decides an action. A yes says where it was given (the chat's card, the confirm page, or the
   * confirm page a URL elicitation opened) and the language its preview was shown in.
   */
  decideAction: (actionId: string, decision: "confirm" | "cancel", seen: ConfirmSeen) =>
    request<Record<string, unknown>>(
      "POST",
      `/api/actions/${enc(actionId)}/${decision}`,
      decision === "confirm" ? seen : undefined,
    ),
  employees: () => request<{ employees: EmployeeView[] }>("GET", "/api/business/employees"),
  styles: () => request<{ styles: StyleView[]; today: string }>("GET", "/api/business/styles"),
  orders: () => request<{ orders: OrderView[] }>("GET", "/api/business/orders"),
  workshop: () => request<WorkshopView>("GET", "/api/business/workshop"),
  /** A month's 补贴 and 扣款 (the workshop's this month when `month` is left out). */
  adjustments: (month?: string) =>
    request<{ month: string; adjustments: AdjustmentView[] }>(
      "GET",
      `/api/business/adjustments${month ? `?month=${enc(month)}` : ""}`,
    ),
  /**
   * Sends a sheet of employees or prices to import: what importing it would do, row by row, and the
   * pending action that writes it (null when the file changes nothing).
   */
  importSheet: async (what: "employees" | "prices", file: File, effectiveFrom?: string) => {
    const form = new FormData();
    form.append("file", file);
    if (effectiveFrom) form.append("effective_from", effectiveFrom);
    const res = await fetch(`/api/business/import/${what}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      body: form,
    });
    const body: unknown = await res.json().catch(() => undefined);
    if (!res.ok) throw errorOf(res.status, body, res.headers.get("Retry-After"));
    return body as { action: PendingAction | null; report: ImportReport };
  },
  /** Prepares a change of the workshop's own data (Settings → 车间资料); `version` refuses it at once when the record changed. */
  prepareBusinessChange: async (change: BusinessChangeBody, version?: number) => {
    const res = await fetch("/api/business/changes", {
      method: "POST",
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        ...(version === undefined ? {} : { "If-Match": `"${version}"` }),
      },
      body: JSON.stringify(change),
    });
    const body: unknown = await res.json().catch(() => undefined);
    if (!res.ok) throw errorOf(res.status, body, res.headers.get("Retry-After"));
    return body as PendingAction;
  },
  listMcpServers: () => request<{ servers: McpServer[] }>("GET", "/api/mcp/servers"),
  addMcpServer: (server: NewMcpServer) => request<McpServer & { sign_in?: SignInStart }>("POST", "/api/mcp/servers", server),
  updateMcpServer: (id: string, changes: McpServerChanges) => request<McpServer>("PATCH", `/api/mcp/servers/${enc(id)}`, changes),
  signInMcpServer: (id: string) => request<{ authorization_url: string }>("POST", `/api/mcp/servers/${enc(id)}/sign-in`),
  setMcpServerEnabled: (id: string, enabled: boolean) => request<McpServer>("PATCH", `/api/mcp/servers/${enc(id)}`, { enabled }),
  deleteMcpServer: (id: string) => request<unknown>("DELETE", `/api/mcp/servers/${enc(id)}`),
  listConnections: () => request<{ connections: Connection[] }>("GET", "/api/oauth/connections"),
  revokeConnection: (id: string) => request<unknown>("DELETE", `/api/oauth/connections/${enc(id)}`),
  listKeys: () => request<{ keys: ApiKey[] }>("GET", "/api/keys"),
  /** Creates a key for the caller; `key` is the secret, in this answer only. */
  createKey: (name: string) => request<ApiKey & { key: string }>("POST", "/api/keys", { name }),
  revokeKey: (id: string) => request<ApiKey>("DELETE", `/api/keys/${enc(id)}`),
  setKeyConfirmBy: (id: string, confirmBy: ConfirmBy) =>
    request<ApiKey>("PATCH", `/api/keys/${enc(id)}`, { confirm_by: confirmBy }),
  setConnectionConfirmBy: (id: string, confirmBy: ConfirmBy) =>
    request<Connection>("PATCH", `/api/oauth/connections/${enc(id)}`, { confirm_by: confirmBy }),
  recentWrites: (limit: number) => request<{ entries: AuditEntry[] }>("GET", `/api/audit?limit=${limit}`),
  auditEntry: (id: string) => request<AuditRecord>("GET", `/api/audit/${enc(id)}`),
  signupMode: () => request<{ signup: SignupMode }>("GET", "/api/workshops/signup"),
  signUp: (workshop: NewWorkshop) => request<{ user: User }>("POST", "/api/workshops", workshop),
  changePassword: (current_password: string, new_password: string) =>
    request<{ changed: true; ended_sessions: number }>("POST", "/api/auth/password", { current_password, new_password }),
  checkPasswordLink: (token: string) => request<PasswordLinkHolder>("POST", "/api/auth/set-password/check", { token }),
  setPassword: (token: string, password: string) =>
    request<{ password_set: true; username: string }>("POST", "/api/auth/set-password", { token, password }),
  listPeople: () => request<{ people: PersonView[]; employees: EmployeeOption[] }>("GET", "/api/people"),
  addPerson: (person: NewPerson) =>
    request<{ person: PersonView; set_password_link?: PasswordLinkView }>("POST", "/api/people", person),
  updatePerson: (id: string, changes: PersonChanges) =>
    request<{ person: PersonView }>("PATCH", `/api/people/${enc(id)}`, changes),
  resetPassword: (id: string) =>
    request<{ set_password_link: PasswordLinkView }>("POST", `/api/people/${enc(id)}/reset-password`),
  /** Stops the reply being written in a chat, on the server: the model stops, what it said is kept. */
  stopReply: (chatId: string) => request<{ stopped: boolean }>("POST", `/api/chats/${enc(chatId)}/stop`),
  rateAnswer: (chatId: string, messageId: string, rating: FeedbackRating, comment?: string) =>
    request<unknown>(
      "POST",
      `/api/chats/${enc(chatId)}/messages/${enc(messageId)}/feedback`,
      comment ? { rating, comment } : { rating },
    ),
  unrateAnswer: (chatId: string, messageId: string) =>
    request<unknown>("DELETE", `/api/chats/${enc(chatId)}/messages/${enc(messageId)}/feedback`),
  versions: (chatId: string, messageId: string) =>
    request<{ versions: MessageVersion[] }>("GET", `/api/chats/${enc(chatId)}/messages/${enc(messageId)}/versions`),
  recentFeedback: () => request<{ feedback: FeedbackView[] }>("GET", "/api/feedback?rating=down&limit=20"),
  addFaqEntry: (kbId: string, entry: { question: string; answer: string }) =>
    request<{ id: string }>("POST", `/api/knowledge-bases/${enc(kbId)}/faq`, entry),
  noteFaqEntry: (feedbackId: string, kbId: string, entryId: string) =>
    request<unknown>("POST", `/api/feedback/${enc(feedbackId)}/faq`, { kb_id: kbId, entry_id: entryId }),
  testMcpServer: (id: string) =>
    request<{ server: McpServer; latency_ms: number; tools: { name: string }[] }>("POST", `/api/mcp/servers/${enc(id)}/refresh`),
};
