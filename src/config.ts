import { z } from "zod";
import { type LogLevel, setLogLevel } from "./log.ts";

const ConfigSchema = z.object({
  ENVIRONMENT: z.enum(["development", "test", "production"]),
  VECTOR_INDEX: z.enum(["local", "vectorize"]),
  EMBEDDINGS: z.enum(["local", "workers-ai"]),
  RERANKER: z.enum(["local", "workers-ai"]),
  OCR: z.enum(["none", "workers-ai"]).default("none"),
  CHAT_MODEL: z.enum(["offline", "workers-ai", "openai-compatible"]),
  CHAT_MODEL_NAME: z.string().trim().default(""),
  CHAT_BASE_URL: z.string().trim().default(""),
  CHAT_API_KEY: z.string().optional(),
  // Tests only (never in wrangler.toml): a pause before each part the model streams, so a reply
  // lasts long enough to reload, drop the connection or stop it mid-way.
  CHAT_MODEL_PACE_MS: z.coerce.number().int().min(0).max(5000).default(0),
  // "none" keeps no stream log of replies (no resume, no stop from another request): the
  // benchmark's baseline for what logging costs (npm run bench chat); never in wrangler.toml.
  CHAT_STREAM_LOG: z.enum(["durable-object", "none"]).default("durable-object"),
  CONSULT_SESSION_TTL_SECONDS: z.coerce.number().int().positive(),
  PENDING_ACTION_TTL_SECONDS: z.coerce.number().int().min(10).max(86400).default(600),
  CHUNK_SIZE: z.coerce.number().int().min(100).max(4000),
  CHUNK_OVERLAP: z.coerce.number().int().min(0).max(1000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  ALLOWED_ORIGINS: z.string().default(""),
  // Empty: each request's own origin (https, or http on localhost) is Weft's public address.
  PUBLIC_URL: z
    .string()
    .trim()
    .default("")
    .refine((value) => value === "" || publicOrigin(value) !== null, {
      message: "PUBLIC_URL must be an https origin (or http://localhost), without a path",
    }),
  ALLOWED_HOSTS: z.string().default(""),
  MCP_ALLOW_LOCAL_URLS: z.enum(["true", "false"]).default("false"),
  MCP_TOOL_LIST_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  MCP_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  MCP_SECRETS_KEY: z.string().optional(),
  TRUST_CLIENT_IP_HEADER: z.enum(["true", "false"]).default("false"),
  D1_READ_REPLICATION: z.enum(["on", "off"]).default("off"),
  // Unset, nobody signs up: a deployment opens itself on purpose.
  SIGNUP: z.enum(["open", "invite", "closed"]).default("closed"),
  // "off" serves raw scores, for scripts/fit-calibration.ts; never set in wrangler.toml.
  SCORE_CALIBRATION: z.enum(["on", "off"]).default("on"),
});

/** Who may sign a new workshop up (`SIGNUP`). */
export type SignupMode = "open" | "invite" | "closed";

/** A Workers AI model with function calling, used when `CHAT_MODEL_NAME` names none. */
const DEFAULT_WORKERS_AI_CHAT_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** The typed, validated configuration every module receives instead of reading `env` itself. */
export interface Config {
  environment: "development" | "test" | "production";
  backends: {
    vectorIndex: "local" | "vectorize";
    embeddings: "local" | "workers-ai";
    reranker: "local" | "workers-ai";
    /** Text recognition for photos and scans: none offline (a clear 422), Workers AI in production. */
    ocr: "none" | "workers-ai";
    chatModel: "offline" | "workers-ai" | "openai-compatible";
  };
  /**
   * The chat model past the switch: its name (a Workers AI model id, or the endpoint's model),
   * and for an OpenAI-compatible endpoint its base URL and key (a secret, never logged).
   */
  chat: {
    modelName: string;
    baseUrl: string;
    apiKey: string | undefined;
    /** `CHAT_MODEL_PACE_MS`, tests only: a pause before each part the model streams; 0 for none. */
    paceMs: number;
    /**
     * `CHAT_STREAM_LOG`: where each reply's stream is logged for resuming and stopping it, a
     * Durable Object per chat; `none` only measures what that costs (no resume, no remote stop).
     */
    streamLog: "durable-object" | "none";
  };
  consultSessionTtlSeconds: number;
  /** How long a prepared write waits for its confirmation. */
  pendingActionTtlSeconds: number;
  /** Chunk budget in Chinese characters (three other characters count one) and the overlap. */
  chunking: { size: number; overlap: number };
  logLevel: LogLevel;
  /** Browser origins allowed besides the server's own; `:*` at the end allows any port. */
  allowedOrigins: string[];
  /**
   * `PUBLIC_URL`: the origin clients reach Weft at, which OAuth tokens for `/mcp` are bound to;
   * `undefined` takes each request's own origin.
   */
  publicUrl: string | undefined;
  /**
   * `ALLOWED_HOSTS`: the host names (any port) the deployment is reached by, lower-cased; `/mcp`
   * refuses any other `Host`, and treats pages on these hosts as its own origins.
   */
  allowedHosts: string[];
  federation: {
    /** `MCP_ALLOW_LOCAL_URLS`: external servers on http://localhost and 127.0.0.1 are allowed. */
    allowLocalUrls: boolean;
    toolListTtlSeconds: number;
    /** The longest a call to an external tool may take, start to end. */
    callTimeoutMs: number;
    /** `MCP_SECRETS_KEY`, base64: encrypts header secrets. Absent, servers with headers cannot be used. */
    secretsKey: string | undefined;
  };
  /**
   * `TRUST_CLIENT_IP_HEADER`: `CF-Connecting-IP` names the client (Cloudflare's edge set it).
   * Otherwise a client may have written it, and no client address is known.
   */
  trustClientIpHeader: boolean;
  /**
   * `D1_READ_REPLICATION`: reads of a workshop's data go through a D1 session, which may read from
   * a replica no older than the caller's last write (its bookmark). Only where the databases have
   * read replication enabled; off locally, where there are no replicas.
   */
  readReplication: boolean;
  /**
   * `SIGNUP`: who may create a workshop with `POST /api/workshops`: anyone (`open`), whoever holds
   * a one-time code from the deployment's operator (`invite`), or nobody (`closed`).
   */
  signup: SignupMode;
  /** Whether search scores are calibrated (always, except to collect raw scores for fitting). */
  scoreCalibration: boolean;
}

/**
 * Reads the Worker's vars once. A misconfigured deployment fails loudly here rather than deep
 * inside a request, and remote backends are refused when their binding is missing.
 */
export function readConfig(env: Env): Config {
  const vars = ConfigSchema.parse(env);
  if (vars.VECTOR_INDEX === "vectorize" && !env.VECTORIZE) {
    throw new Error("VECTOR_INDEX is 'vectorize' but no VECTORIZE binding is configured");
  }
  const needsAi =
    vars.EMBEDDINGS === "workers-ai" ||
    vars.RERANKER === "workers-ai" ||
    vars.CHAT_MODEL === "workers-ai" ||
    vars.OCR === "workers-ai";
  if (needsAi && !env.AI) {
    throw new Error("a Workers AI backend is selected but no AI binding is configured");
  }
  if (vars.CHAT_MODEL === "openai-compatible" && (!vars.CHAT_BASE_URL || !vars.CHAT_MODEL_NAME)) {
    throw new Error("CHAT_MODEL is 'openai-compatible' but CHAT_BASE_URL or CHAT_MODEL_NAME is not set");
  }
  return {
    environment: vars.ENVIRONMENT,
    backends: {
      vectorIndex: vars.VECTOR_INDEX,
      embeddings: vars.EMBEDDINGS,
      reranker: vars.RERANKER,
      ocr: vars.OCR,
      chatModel: vars.CHAT_MODEL,
    },
    chat: {
      modelName: vars.CHAT_MODEL_NAME || DEFAULT_WORKERS_AI_CHAT_MODEL,
      baseUrl: vars.CHAT_BASE_URL,
      apiKey: vars.CHAT_API_KEY || undefined,
      paceMs: vars.CHAT_MODEL_PACE_MS,
      streamLog: vars.CHAT_STREAM_LOG,
    },
    consultSessionTtlSeconds: vars.CONSULT_SESSION_TTL_SECONDS,
    pendingActionTtlSeconds: vars.PENDING_ACTION_TTL_SECONDS,
    chunking: { size: vars.CHUNK_SIZE, overlap: Math.min(vars.CHUNK_OVERLAP, Math.floor(vars.CHUNK_SIZE / 2)) },
    logLevel: vars.LOG_LEVEL,
    allowedOrigins: vars.ALLOWED_ORIGINS.split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    publicUrl: vars.PUBLIC_URL ? (publicOrigin(vars.PUBLIC_URL) ?? undefined) : undefined,
    allowedHosts: vars.ALLOWED_HOSTS.split(",")
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    federation: {
      allowLocalUrls: vars.MCP_ALLOW_LOCAL_URLS === "true",
      toolListTtlSeconds: vars.MCP_TOOL_LIST_TTL_SECONDS,
      callTimeoutMs: vars.MCP_CALL_TIMEOUT_MS,
      secretsKey: vars.MCP_SECRETS_KEY || undefined,
    },
    trustClientIpHeader: vars.TRUST_CLIENT_IP_HEADER === "true",
    readReplication: vars.D1_READ_REPLICATION === "on",
    signup: vars.SIGNUP,
    scoreCalibration: vars.SCORE_CALIBRATION === "on",
  };
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The origin Weft may be an OAuth authorization server at: https anywhere, plain http only on a
 * loopback host (OAuth 2.1); else null. Given as text (a configured `PUBLIC_URL`), it must be the
 * bare origin: no path, query, credentials or fragment. Given a request's parsed URL, its origin.
 */
export function publicOrigin(raw: string | URL): string | null {
  let url: URL;
  try {
    url = raw instanceof URL ? raw : new URL(raw);
  } catch {
    return null;
  }
  const secure = url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  const bare = raw instanceof URL || (url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password);
  return secure && bare ? url.origin : null;
}

// The bindings object is the same for every request an isolate serves, so it is parsed once.
const parsed = new WeakMap<Env, Config>();

/**
 * The configuration for these bindings, parsed on first use per isolate, and the log level set
 * from it.
 */
export function configFor(env: Env): Config {
  let config = parsed.get(env);
  if (!config) {
    config = readConfig(env);
    parsed.set(env, config);
    setLogLevel(config.logLevel);
  }
  return config;
}
