import { z } from "zod";
import { type ConfigProblem, Misconfigured, malformedHosts, productionProblems, secretsKeyProblem } from "./config-problems.ts";
import { type LogLevel, log, setLogLevel } from "./log.ts";

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
      message: "is not an https origin (or http://localhost) without a path, e.g. https://weft.example.com",
    }),
  ALLOWED_HOSTS: z.string().default(""),
  MCP_ALLOW_LOCAL_URLS: z.enum(["true", "false"]).default("false"),
  MCP_TOOL_LIST_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  MCP_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  MCP_SECRETS_KEY: z.string().optional(),
  // Set only while the key is being rotated (npm run secrets:rotate): the key that seals from now on.
  MCP_SECRETS_KEY_NEXT: z.string().optional(),
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
  chat: { modelName: string; baseUrl: string; apiKey: string | undefined };
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
    /**
     * The key that seals header secrets and OAuth tokens and signs confirmation states:
     * `MCP_SECRETS_KEY`, or `MCP_SECRETS_KEY_NEXT` while the key is being rotated. Absent (never in
     * production), servers with headers cannot be used.
     */
    secretsKey: string | undefined;
    /**
     * Keys that still open what was sealed before a rotation began (`MCP_SECRETS_KEY` while
     * `MCP_SECRETS_KEY_NEXT` is set); empty otherwise.
     */
    olderSecretsKeys: string[];
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
 * Reads the Worker's vars once. A misconfigured deployment fails loudly here, naming every setting
 * that is missing or malformed at once (`Misconfigured`), rather than deep inside the first request
 * that needs one: remote backends without their binding, a secrets key too short to be one, and in
 * production no secrets key, public address or hosts to serve.
 */
export function readConfig(env: Env): Config {
  const result = ConfigSchema.safeParse(env);
  const problems: ConfigProblem[] = result.success
    ? []
    : result.error.issues.map((issue) => ({ name: String(issue.path[0] ?? "configuration"), problem: issue.message }));
  problems.push(...bindingProblems(env), ...keyProblems(env));
  const allowedHosts = listOf(setting(env, "ALLOWED_HOSTS")).map((host) => host.toLowerCase());
  const malformed = malformedHosts(allowedHosts);
  if (malformed.length > 0) {
    problems.push({
      name: "ALLOWED_HOSTS",
      problem: `lists ${malformed.length === 1 ? "an entry that is" : "entries that are"} not a host name (${malformed.join(", ").slice(0, 200)}): no scheme, port or path`,
    });
  }
  const publicUrlText = setting(env, "PUBLIC_URL");
  const publicUrl = publicUrlText ? (publicOrigin(publicUrlText) ?? undefined) : undefined;
  if (setting(env, "ENVIRONMENT") === "production") {
    problems.push(...productionProblems({ secretsKey: setting(env, "MCP_SECRETS_KEY"), publicUrlText, publicUrl, allowedHosts }));
  }
  if (!result.success || problems.length > 0) throw new Misconfigured(problems);
  const vars = result.data;
  const next = vars.MCP_SECRETS_KEY_NEXT || undefined;
  const current = vars.MCP_SECRETS_KEY || undefined;
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
    },
    consultSessionTtlSeconds: vars.CONSULT_SESSION_TTL_SECONDS,
    pendingActionTtlSeconds: vars.PENDING_ACTION_TTL_SECONDS,
    chunking: { size: vars.CHUNK_SIZE, overlap: Math.min(vars.CHUNK_OVERLAP, Math.floor(vars.CHUNK_SIZE / 2)) },
    logLevel: vars.LOG_LEVEL,
    allowedOrigins: listOf(vars.ALLOWED_ORIGINS),
    publicUrl,
    allowedHosts,
    federation: {
      allowLocalUrls: vars.MCP_ALLOW_LOCAL_URLS === "true",
      toolListTtlSeconds: vars.MCP_TOOL_LIST_TTL_SECONDS,
      callTimeoutMs: vars.MCP_CALL_TIMEOUT_MS,
      secretsKey: next ?? current,
      olderSecretsKeys: next && current && current !== next ? [current] : [],
    },
    trustClientIpHeader: vars.TRUST_CLIENT_IP_HEADER === "true",
    readReplication: vars.D1_READ_REPLICATION === "on",
    signup: vars.SIGNUP,
    scoreCalibration: vars.SCORE_CALIBRATION === "on",
  };
}

/** A var as text, trimmed; empty when unset or not text. */
function setting(env: Env, name: string): string {
  const value = (env as unknown as Record<string, unknown>)[name];
  return typeof value === "string" ? value.trim() : "";
}

const listOf = (text: string) =>
  text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** Remote backends whose binding is missing, and an OpenAI-compatible model without its address. */
function bindingProblems(env: Env): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (setting(env, "VECTOR_INDEX") === "vectorize" && !env.VECTORIZE) {
    problems.push({ name: "VECTORIZE", problem: "VECTOR_INDEX is 'vectorize' but no VECTORIZE binding is configured" });
  }
  const aiBackends = ["EMBEDDINGS", "RERANKER", "CHAT_MODEL", "OCR"].filter((name) => setting(env, name) === "workers-ai");
  if (aiBackends.length > 0 && !env.AI) {
    problems.push({ name: "AI", problem: `${aiBackends.join(", ")} use Workers AI but no AI binding is configured` });
  }
  if (setting(env, "CHAT_MODEL") === "openai-compatible") {
    for (const name of ["CHAT_BASE_URL", "CHAT_MODEL_NAME"]) {
      if (!setting(env, name)) problems.push({ name, problem: "is not set, and CHAT_MODEL is 'openai-compatible'" });
    }
  }
  return problems;
}

/** Secrets keys that are set but could not be keys (never quoting them). */
function keyProblems(env: Env): ConfigProblem[] {
  return ["MCP_SECRETS_KEY", "MCP_SECRETS_KEY_NEXT"].flatMap((name) => {
    const value = (env as unknown as Record<string, unknown>)[name];
    const problem = typeof value === "string" && value !== "" ? secretsKeyProblem(value) : null;
    return problem ? [{ name, problem }] : [];
  });
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

// The bindings object is the same for every request an isolate serves, so it is read once, and so
// is a misconfiguration, which is logged once.
const parsed = new WeakMap<Env, Config | Misconfigured>();

/**
 * The configuration for these bindings, read on first use per isolate, and the log level set from
 * it; throws `Misconfigured` (logged once per isolate) when a setting is missing or malformed.
 */
export function configFor(env: Env): Config {
  let config = parsed.get(env);
  if (!config) {
    try {
      config = readConfig(env);
      setLogLevel(config.logLevel);
    } catch (error) {
      if (!(error instanceof Misconfigured)) throw error;
      config = error;
      log("error", "misconfigured", { settings: error.problems });
    }
    parsed.set(env, config);
  }
  if (config instanceof Misconfigured) throw config;
  return config;
}
