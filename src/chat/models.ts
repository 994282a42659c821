import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { createWorkersAI } from "workers-ai-provider";
import type { Config } from "../config.ts";
import { OFFLINE_MODEL_ID, offlineModel } from "./offline/offline-model.ts";
import { pacedModel } from "./paced-model.ts";

/** What `GET /api/chat/model` tells the UI about the model answering. */
export interface ModelInfo {
  id: string;
  offline: boolean;
  label: string;
}

/** The configured model, as the UI announces it. */
export function modelInfo(config: Config): ModelInfo {
  switch (config.backends.chatModel) {
    case "offline":
      return { id: OFFLINE_MODEL_ID, offline: true, label: "离线模型 (offline: tools and extractive answers, no network)" };
    case "workers-ai":
      return { id: config.chat.modelName, offline: false, label: `Workers AI · ${config.chat.modelName}` };
    case "openai-compatible":
      return { id: config.chat.modelName, offline: false, label: config.chat.modelName };
  }
}

/**
 * The chat model chosen by `CHAT_MODEL`: the offline model (default), Workers AI through its
 * binding, or any OpenAI-compatible endpoint (Zhipu GLM, a local Ollama, ...). `timeZone` is the
 * workshop's, for the offline model's reading of "今天" and "这个月". Tests that need a reply to
 * take its time set `CHAT_MODEL_PACE_MS`, which paces whichever model it is.
 */
export function chatModel(options: { ai: Ai | undefined; config: Config; timeZone: string }): LanguageModelV4 {
  const model = configuredModel(options);
  return options.config.chat.paceMs > 0 ? pacedModel(model, options.config.chat.paceMs) : model;
}

function configuredModel({ ai, config, timeZone }: { ai: Ai | undefined; config: Config; timeZone: string }): LanguageModelV4 {
  switch (config.backends.chatModel) {
    case "offline":
      return offlineModel({ timeZone });
    case "workers-ai":
      // readConfig refuses this backend without an AI binding.
      return createWorkersAI({ binding: ai as Ai })(config.chat.modelName);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: config.chat.baseUrl,
        ...(config.chat.apiKey ? { apiKey: config.chat.apiKey } : {}),
      }).chatModel(config.chat.modelName);
  }
}
