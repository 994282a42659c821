// Shapes that cross a layer: domains and tools share them, and the browser reads them off the wire.
// Types only, so the browser bundle can import this module and gain nothing but compile-time checks;
// dependency-cruiser holds the browser to this one module (.dependency-cruiser.cjs).

import type { Role } from "./user-context.ts";

export type { Role };

/** An API key as its lists show it (`/api/keys`): never the secret, which only its creation returns. */
export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  user_id: string;
  /** Whose key it is and the role it acts with (its owner's, as it is now). */
  user_name: string;
  role: Role;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Whether agents may confirm prepared writes with this key (off until its owner, or an admin, turns it on). */
  agent_confirm: boolean;
}

/**
 * The ways a person says yes to a write, as the audit records them: a prepared write's card,
 * elicitation, confirm page or agent key, or a settings form the person submitted (`settings`).
 */
export type ConfirmationPath = "card" | "elicitation" | "confirm_page" | "agent_key" | "settings";

/** An executed write as the audit (`GET /api/audit`) lists it. */
export interface AuditEntry {
  id: string;
  user_id: string;
  user_name: string | null;
  action_id: string;
  kind: string;
  entity_id: string;
  values: unknown;
  /** What was written, in the words its person confirmed (计件登记：张三 上领子 50 件); null for writes before this was kept. */
  summary: string | null;
  /** How it was confirmed; null for writes before this was recorded. */
  confirmed_via: ConfirmationPath | null;
  /** The visible prefix of the key that confirmed it, for `agent_key`. */
  confirmed_key_prefix: string | null;
  created_at: string;
}

/** A person of the workshop as `GET /api/people` lists them for a boss. */
export interface PersonView {
  id: string;
  name: string;
  /** What they sign in with; null for someone who only has API keys (made by `npm run keys:create-admin`). */
  username: string | null;
  role: Role;
  /** False once deactivated: no sign-in, no credential, records kept. */
  active: boolean;
  /** Whether they have set a password (or were given one). */
  has_password: boolean;
  /** Whether a one-time set-password link of theirs is still unused and valid. */
  password_link_pending: boolean;
  /** The employee record whose piece records and pay are theirs, if linked. */
  employee_id: string | null;
  employee_name: string | null;
  created_at: string;
  deactivated_at: string | null;
}

/** An employee record a person may be linked to, as `GET /api/people` offers them. */
export interface EmployeeOption {
  id: string;
  name: string;
  employee_no: string;
  status: "active" | "left";
  /** The person linked to it, if any: an employee belongs to one person at most. */
  person_id: string | null;
}

/**
 * Why a password was refused, as `error.details.reason` says it (with `details.field`): too short or
 * long, one of the most common passwords, the username, unchanged, or (the current password) wrong.
 */
export type PasswordRefusal = "too_short" | "too_long" | "common" | "username" | "unchanged" | "wrong_current";

/** A one-time link that lets a person set their password: shown once, to send them by WeChat or SMS. */
export interface PasswordLinkView {
  url: string;
  expires_at: string;
}

/** A JSON Schema object, as external MCP servers describe their tools' input and output. */
export type JsonSchema = Record<string, unknown>;

/** One line of a pending action's preview: a label a person reads and its value. */
export interface PreviewField {
  label: string;
  value: string;
}

/** Something still to settle before a pending action can be confirmed, with the choices. */
export interface Ambiguity {
  field: string;
  message: string;
  candidates: { id: string; label: string }[];
}

/**
 * A write that has been prepared and checked but not done: the user confirms it (or not) by its
 * `actionId`, never the model on its own.
 */
export interface PendingAction {
  actionId: string;
  /** One sentence saying what will happen, in the user's language. */
  summary: string;
  preview: PreviewField[];
  ambiguities: Ambiguity[];
  expiresAt: string;
}

/**
 * A tool's answer. A `result` carries structured data (checked against `outputSchema` when the
 * tool has one) and, where JSON reads poorly, a text rendering for models. A `pending_action`
 * is a prepared write that each face asks the user to confirm in its own way.
 */
export type ToolOutput<O = Record<string, unknown>> =
  | { kind: "result"; structured: O; text?: string }
  | { kind: "pending_action"; action: PendingAction };

export type ActionStatus = "pending" | "confirmed" | "cancelled" | "expired" | "failed";

/** An action as the REST routes and the tools show it (snake_case JSON). */
export interface ActionView {
  action_id: string;
  /** The kind of write, one of the executors' kinds (`piece_record`, `order`, `external_call`, ...). */
  kind: string;
  status: ActionStatus;
  summary: string;
  preview: PreviewField[];
  ambiguities: Ambiguity[];
  created_at: string;
  expires_at: string;
  /** What was written, once confirmed. */
  result?: Record<string, unknown>;
  /** Why a confirm was refused for good (status `failed`). */
  error?: { code: string; message: string };
}

/** The `data` of a chat's `data-confirm-card` part: the pending action, where it stands, and its outcome. */
export interface ConfirmCardData extends PendingAction {
  status: ActionStatus;
  result?: string;
}

/**
 * A passage an answer may cite as `[n] citation`: the browser matches the citation an answer names
 * to one of these and opens the passage by its base and chunk id.
 */
export interface CitedSource {
  /** Where the passage comes from, as the answer names it: `title › heading`. */
  citation: string;
  kb_id: string;
  chunk_id: string;
}

/** One stored passage (a chunk) as a reader opens it from a citation: where it is and what it says. */
export interface PassageView {
  id: string;
  kb_id: string;
  kb_name: string;
  document_id: string;
  document_title: string;
  filename: string;
  heading_path: string;
  content: string;
}

/**
 * The `data` of a chat's `data-tool-form` part: an external tool whose arguments the model could
 * not fill, as a form built from its input schema, with what was filled already. Submitting it
 * sends `<toolName> <arguments as JSON>` as the person's next message, which calls the tool.
 */
export interface ToolFormData {
  toolName: string;
  title: string;
  description: string;
  /** The tool's input as JSON Schema, references inlined (the schema function calling gets). */
  schema: JsonSchema;
  values: Record<string, unknown>;
}

/** The data parts the chat stream carries beyond text and tools, by the name after `data-`. */
export type ChatDataParts = {
  "confirm-card": ConfirmCardData;
  /** The passages the reply was given to cite: those retrieved for the question, or a search tool's results. */
  sources: { sources: CitedSource[] };
  "tool-form": ToolFormData;
};

/** An external MCP server as the workshop's settings show it: header names, never their values. */
export interface ServerView {
  id: string;
  name: string;
  url: string;
  header_names: string[];
  enabled: boolean;
  expose_on_mcp: boolean;
  transport: string | null;
  auth: "headers" | "oauth";
  health: {
    status: "ok" | "failing" | "unknown" | "needs_sign_in";
    last_success_at: string | null;
    last_error: string | null;
    last_error_at: string | null;
    tool_count: number | null;
    latency_ms: number | null;
    tools_fetched_at: string | null;
    /** Errors single tools answered with: they do not make the server `failing`. */
    tool_errors: { count: number; last_error: string | null; last_error_at: string | null };
  };
  created_at: string;
  updated_at: string;
}

/** Words in both of the UI's languages. */
export interface BothLanguages {
  zh: string;
  en: string;
}

/**
 * A tool's words as the browser reads them (`GET /api/chat/tools`): written once on the tool's
 * definition, so the chat's tool cards, the confirm card and the confirm page need no list of
 * their own keyed by tool name.
 */
export interface ToolWordsView {
  name: string;
  title: BothLanguages;
  /** The icon's address on this deployment (`/icons/records.svg`). */
  icon: string;
  read_only: boolean;
  /** The kind of write the tool prepares, for a prepare tool (`piece_record`, `order`). */
  prepares: string | null;
  /** What the tool's input fields and their coded values are called (`employee`: 员工, `this_month`: 本月). */
  fields: Record<string, BothLanguages>;
  /** What the fields of its result (and, for a prepare tool, of the written record) are called. */
  results: Record<string, BothLanguages>;
  /** What the lists in its result are called ("计件记录 10" on a tool card). */
  lists: Record<string, BothLanguages>;
}
