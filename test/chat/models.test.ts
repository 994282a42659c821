import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatModel, modelInfo } from "../../src/chat/models.ts";
import { readConfig } from "../../src/config.ts";

function configured(vars: Record<string, unknown>) {
  const bindings = { ...env, ...vars } as Env;
  return { bindings, config: readConfig(bindings) };
}

describe("the CHAT_MODEL switch", () => {
  it("defaults to the offline model, announced as offline", () => {
    const { bindings, config } = configured({});
    const model = chatModel({ ai: bindings.AI, config, timeZone: "Asia/Shanghai" });
    expect([model.provider, model.modelId]).toEqual(["weft", "offline"]);
    expect(modelInfo(config)).toMatchObject({ id: "offline", offline: true });
  });

  it("builds an OpenAI-compatible model from the base URL, model name and key (Zhipu GLM, Ollama)", () => {
    const { bindings, config } = configured({
      CHAT_MODEL: "openai-compatible",
      CHAT_BASE_URL: "http://localhost:11434/v1",
      CHAT_MODEL_NAME: "qwen2.5:7b",
      CHAT_API_KEY: "secret-key",
    });
    const model = chatModel({ ai: bindings.AI, config, timeZone: "Asia/Shanghai" });
    expect(model.specificationVersion).toBe("v4");
    expect(model.modelId).toBe("qwen2.5:7b");
    expect(model.provider).toMatch(/^openai-compatible/);
    expect(modelInfo(config)).toEqual({ id: "qwen2.5:7b", offline: false, label: "qwen2.5:7b" });
    expect(JSON.stringify(modelInfo(config))).not.toContain("secret-key");
  });

  it("refuses an OpenAI-compatible model without a base URL or model name", () => {
    expect(() => configured({ CHAT_MODEL: "openai-compatible", CHAT_MODEL_NAME: "glm-4-flash" })).toThrow(/CHAT_BASE_URL/);
  });

  it("builds a Workers AI model over the AI binding, with the default function-calling model", () => {
    const { bindings, config } = configured({
      CHAT_MODEL: "workers-ai",
      AI: { run: () => Promise.reject(new Error("offline")) },
    });
    const model = chatModel({ ai: bindings.AI, config, timeZone: "Asia/Shanghai" });
    expect(model.modelId).toBe("@cf/meta/llama-3.3-70b-instruct-fp8-fast");
    expect(modelInfo(config)).toMatchObject({ offline: false, label: "Workers AI · @cf/meta/llama-3.3-70b-instruct-fp8-fast" });
  });
});
