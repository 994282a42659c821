import { z } from "zod";
import { type LogLevel, setLogLevel } from "./log.ts";

const ConfigSchema = z.object({
  ENVIRONMENT: z.enum(["development", "test", "production"]),
  VECTOR_INDEX: z.enum(["local", "vectorize"]),
  EMBEDDINGS: z.enum(["local", "workers-ai"]),
  RERANKER: z.enum(["local", "workers-ai"]),
  CHAT_MODEL: z.enum(["offline", "workers-ai", "openai-compatible"]),
  CONSULT_SESSION_TTL_SECONDS: z.coerce.number().int().positive(),
  PENDING_ACTION_TTL_SECONDS: z.coerce.number().int().min(10).max(86400).default(600),
  CHUNK_SIZE: z.coerce.number().int().min(100).max(4000),
  CHUNK_OVERLAP: z.coerce.number().int().min(0).max(1000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  ALLOWED_ORIGINS: z.string().default(""),
});

/** The typed, validated configuration every module receives instead of reading `env` itself. */
export interface Config {
  environment: "development" | "test" | "production";
  backends: {
    vectorIndex: "local" | "vectorize";
    embeddings: "local" | "workers-ai";
    reranker: "local" | "workers-ai";
    chatModel: "offline" | "workers-ai" | "openai-compatible";
  };
  consultSessionTtlSeconds: number;
  /** How long a prepared write waits for its confirmation. */
  pendingActionTtlSeconds: number;
  /** Chunk budget in Chinese characters (three other characters count one) and the overlap. */
  chunking: { size: number; overlap: number };
  logLevel: LogLevel;
  /** Browser origins allowed besides the server's own; `:*` at the end allows any port. */
  allowedOrigins: string[];
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
  const needsAi = vars.EMBEDDINGS === "workers-ai" || vars.RERANKER === "workers-ai" || vars.CHAT_MODEL === "workers-ai";
  if (needsAi && !env.AI) {
    throw new Error("a Workers AI backend is selected but no AI binding is configured");
  }
  return {
    environment: vars.ENVIRONMENT,
    backends: {
      vectorIndex: vars.VECTOR_INDEX,
      embeddings: vars.EMBEDDINGS,
      reranker: vars.RERANKER,
      chatModel: vars.CHAT_MODEL,
    },
    consultSessionTtlSeconds: vars.CONSULT_SESSION_TTL_SECONDS,
    pendingActionTtlSeconds: vars.PENDING_ACTION_TTL_SECONDS,
    chunking: { size: vars.CHUNK_SIZE, overlap: Math.min(vars.CHUNK_OVERLAP, Math.floor(vars.CHUNK_SIZE / 2)) },
    logLevel: vars.LOG_LEVEL,
    allowedOrigins: vars.ALLOWED_ORIGINS.split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
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
