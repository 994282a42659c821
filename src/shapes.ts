// Shapes that cross a layer: domains and tools share them, and the browser reads them off the wire.
// Types only, so the browser bundle can import this module and gain nothing but compile-time checks;
// dependency-cruiser holds the browser to this one module (.dependency-cruiser.cjs).

import type { ActionStatus } from "./status-words.ts";
import type { Role } from "./user-context.ts";

export type { ActionStatus, Role };

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
  /** Who says yes to a write prepared with this key (`weft` for a new key; set by a person signed in, never with a key). */
  confirm_by: ConfirmBy;
  /** `confirm_by == "agent"`, kept readable for one release (it was the setting before `confirm_by`). */
  agent_confirm: boolean;
}

/** A client a person allowed to act for them at `/mcp` over OAuth, as the settings list it (`/api/oauth/connections`). */
export interface OAuthConnection {
  id: string;
  user_id: string;
  user_name: string;
  client_id: string;
  client_name: string;
  redirect_host: string;
  access: "read" | "write";
  /** Who may say yes to a write the app prepares (chosen on the consent page, `weft` unless changed). */
  confirm_by: ConfirmBy;
  created_at: string;
  expires_at: string;
}

/**
 * Who may say yes to a write prepared with a credential, its owner's choice per API key and per
 * OAuth connection: `weft` (the default), only Weft's own surfaces (the chat's card, the confirm
 * page, an MCP URL elicitation that opens it); `client`, also the person's MCP client asking them
 * (a form elicitation); `agent`, also the agent itself (`confirm_action`). Each allows what the
 * ones before it allow.
 */
export type ConfirmBy = "weft" | "client" | "agent";

/**
 * The ways a write is said yes to, as the audit records them: a prepared write's card, confirm
 * page (opened by a person or by a URL elicitation), form elicitation or agent, or a settings form
 * the person submitted (`settings`).
 */
export type ConfirmationPath = "card" | "confirm_page" | "url_elicitation" | "form_elicitation" | "agent_key" | "settings";

/** An executed write as the audit (`GET /api/audit`) lists it; append-only. */
export interface AuditEntry {
  id: string;
  /** Who said yes: always the person who prepared it. */
  user_id: string;
  /** Their name as it was when they said yes (read from the directory for entries older than that). */
  user_name: string | null;
  action_id: string;
  kind: string;
  entity_id: string;
  /** What was executed: the written values, or an external tool's arguments. */
  values: unknown;
  /** What was written, in the words its person confirmed (计件登记：张三 上领子 50 件); null for writes before this was kept. */
  summary: string | null;
  /** How it was confirmed; null for writes before this was recorded. */
  confirmed_via: ConfirmationPath | null;
  /** The credential it was confirmed with: an API key's visible prefix or an OAuth app's name; null in a browser session. */
  credential: string | null;
  /** `credential` when a key confirmed (`agent_key`), kept readable for one release. */
  confirmed_key_prefix: string | null;
  /** SHA-256 (hex) of the exact preview text the person was shown (`AuditRecord.shown_text`); null for older entries. */
  shown_sha256: string | null;
  created_at: string;
}

/** One audit entry with the preview text its person was shown (`GET /api/audit/:id`), to check against its digest. */
export interface AuditRecord extends AuditEntry {
  shown_text: string | null;
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
  /** A value only known once written (a new order's number): a written card shows what was written instead. */
  until_written?: true;
}

/** Something still to settle before a pending action can be confirmed, with the choices. */
export interface Ambiguity {
  field: string;
  message: string;
  candidates: { id: string; label: string }[];
}

/**
 * A prepared write on the wire, in whatever state it is: the one shape MCP results, the REST
 * routes (`/api/actions/:id`), the chat's confirm card and the confirm page all carry. Its person
 * confirms it (or not) by `action_id`, never a model on its own.
 */
/**
 * Where a write was prepared, for the confirm page to say: in Weft's own chat, by an MCP client the
 * person connected (its name), or by an agent with one of their API keys (its visible prefix).
 */
export type PreparedIn = { via: "chat" } | { via: "client"; name: string } | { via: "agent_key"; name: string };

export interface PendingAction {
  action_id: string;
  /** The kind of write, one of the executors' kinds (`piece_record`, `order`, `external_call`, ...). */
  kind: string;
  status: ActionStatus;
  /** One sentence saying what will happen, in the user's language. */
  summary: string;
  preview: PreviewField[];
  ambiguities: Ambiguity[];
  created_at: string;
  expires_at: string;
  /** Where its person confirms it in the browser, signed in: the confirm page. */
  confirm_url: string;
  /** What was written, once confirmed. */
  result?: Record<string, unknown>;
  /** Why a confirm was refused for good (status `failed`). */
  error?: { code: string; message: string };
  /** Where it was prepared; absent for actions prepared before this was kept. */
  prepared_in?: PreparedIn;
}

/**
 * A tool's answer. A `result` carries structured data (checked against `outputSchema` when the
 * tool has one) and, where JSON reads poorly, a text rendering for models. A `pending_action`
 * is a prepared write that each face asks the user to confirm in its own way.
 */
export type ToolOutput<O = Record<string, unknown>> =
  | { kind: "result"; structured: O; text?: string }
  | { kind: "pending_action"; action: PendingAction };

/** The `data` of a chat's `data-confirm-card` part: the action, and once decided the line saying what became of it. */
export interface ConfirmCardData extends PendingAction {
  outcome?: string;
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
  /** The PDF page the passage is on, or null. */
  page: number | null;
  /** The spreadsheet's sheet the passage's rows are from, or null. */
  sheet: string | null;
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

/** A person's rating of an answer: `POST /api/chats/:id/messages/:messageId/feedback`. */
export type FeedbackRating = "up" | "down";

/**
 * What a chat message carries besides its parts (the AI SDK message's `metadata`), streamed with it
 * and stored with it.
 */
export interface ChatMessageMetadata {
  /** A reply that did not run to its end: the person stopped it, or the server stopped mid-reply. */
  ended?: "stopped" | "interrupted";
  /**
   * How many earlier versions this message took the place of: answers made again ("regenerate"),
   * or, on a question, the questions it was edited from (each with its answer).
   */
  previous?: number;
  /** The person's rating of this answer, read with the history. */
  feedback?: { rating: FeedbackRating; comment: string | null };
}

/** An earlier version of a chat message (`GET /api/chats/:id/messages/:messageId/versions`): its turn as it was. */
export interface MessageVersion {
  /** The question of that version, when the versions are of a question (an edited one). */
  question: { id: string; text: string } | null;
  /** The answer of that version, as stored (parts and metadata), if it had one. */
  reply: { id: string; parts: unknown[]; metadata: ChatMessageMetadata } | null;
  created_at: string;
}

/** One answer rated 👎 as a boss reviews them (`GET /api/feedback`). */
export interface FeedbackView {
  id: string;
  rating: FeedbackRating;
  comment: string | null;
  chat_id: string;
  message_id: string;
  /** Who rated it (the person who asked), by name from the directory. */
  person: { id: string; name: string | null };
  question: string;
  answer: string;
  /** The passages the answer was given and the tools it called, so a wrong source can be found. */
  sources: CitedSource[];
  tools: string[];
  /** The FAQ entry a boss added from it, if any. */
  faq: { kb_id: string; entry_id: string } | null;
  created_at: string;
  updated_at: string;
}

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

/** Why a file could not be read: a failed document keeps it with its figures, and each person reads it in their language. */
export type FileProblemReason =
  | "unsupported_type"
  | "legacy_format"
  | "too_large"
  | "too_many_pages"
  | "too_many_rows"
  | "expands_too_much"
  | "encrypted"
  | "damaged"
  | "no_text"
  | "needs_ocr"
  | "ocr_failed"
  | "index_failed";

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
  /** The kind of write the tool prepares, for a prepare tool (`piece_record`, `order`; several, space-separated). */
  prepares: string | null;
  /** What the tool's input fields and their coded values are called (`employee`: 员工, `this_month`: 本月). */
  fields: Record<string, BothLanguages>;
  /** What the fields of its result (and, for a prepare tool, of the written record) are called. */
  results: Record<string, BothLanguages>;
  /** What the lists in its result are called ("计件记录 10" on a tool card). */
  lists: Record<string, BothLanguages>;
}

/** An amount of money as every answer gives it: integer cents (分) and the same in yuan, two decimals. */
export interface MoneyView {
  cents: number;
  yuan: string;
}

/** One cell of an imported sheet that could not be taken, as the import's report names it. */
export interface ImportProblem {
  sheet: string;
  /** The row as the spreadsheet numbers it. */
  row: number;
  /** The column's header as the file names it (or the column Weft looked for). */
  column: string;
  message: string;
}

/**
 * What an import of employees or of a price list would do, row by row, before anything is written
 * (`POST /api/business/import/*`): the rows that add something, those that change a record (old and
 * new side by side), how many change nothing, and the rows left out for a problem, by row and column.
 */
export interface ImportReport {
  file: string;
  add: { sheet: string; row: number; text: string }[];
  change: { sheet: string; row: number; text: string; before: string; after: string }[];
  unchanged: number;
  problems: ImportProblem[];
  /** Sheets with no header row naming the columns an import needs: not read. */
  skipped_sheets: string[];
}

/** An employee record as Settings → 车间资料 lists it for a boss, with its version for `If-Match`. */
export interface EmployeeView {
  id: string;
  name: string;
  employee_no: string;
  phone: string | null;
  status: "active" | "left";
  left_on: string | null;
  /** Whether a person signs in as this employee (Settings → 人员 links them). */
  has_login: boolean;
  version: number;
}

/** One price of a process's history: from a day (null: the price it started with), and when it was set. */
export interface PriceView {
  unit_price: MoneyView;
  from: string | null;
  set_at: string;
  /** Who set it, as the directory names them now; null for the starting price and demo data. */
  set_by: string | null;
  /** A later change for the same day replaced it. */
  replaced: boolean;
}

/** A process of a style as the settings list it: today's price, the next change set, and its history. */
export interface ProcessView {
  id: string;
  name: string;
  active: boolean;
  unit_price: MoneyView;
  next_price: { unit_price: MoneyView; from: string } | null;
  prices: PriceView[];
  version: number;
}

/** A style (款式) and its processes in the order they are done. */
export interface StyleView {
  id: string;
  code: string;
  name: string;
  version: number;
  processes: ProcessView[];
}

/** An order as the settings list it, for its status and details to be changed. */
export interface OrderView {
  id: string;
  order_no: string;
  customer: string;
  style: string;
  quantity: number;
  due_date: string;
  status: "pending" | "in_production" | "completed" | "cancelled";
  note: string;
  cancel_reason: string;
  version: number;
}

/** A 补贴 or 扣款 of a month as the settings list it. */
export interface AdjustmentView {
  id: string;
  employee: { id: string; name: string; employee_no: string };
  kind: "allowance" | "deduction";
  amount: MoneyView;
  reason: string;
  created_at: string;
}

/** The workshop's own settings, with the version a change is sent against and the workshop's today. */
export interface WorkshopView {
  name: string;
  time_zone: string;
  version: number;
  today: string;
}
