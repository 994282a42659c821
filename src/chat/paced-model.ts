import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";

/**
 * `model`, its stream paced: each part waits `paceMs` before it is passed on, as a remote model
 * that takes its time would, so a reply lasts long enough for a test to reload, drop the
 * connection or stop it mid-way (`CHAT_MODEL_PACE_MS`, set only by tests). Like a remote model's
 * stream, it ends as soon as the call is aborted, waiting or not.
 */
export function pacedModel(model: LanguageModelV4, paceMs: number): LanguageModelV4 {
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    async doStream(options) {
      const result = await model.doStream(options);
      const signal = options.abortSignal;
      const pause = () =>
        new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          const timer = setTimeout(done, paceMs);
          function done() {
            signal?.removeEventListener("abort", aborted);
            resolve();
          }
          function aborted() {
            clearTimeout(timer);
            reject(signal?.reason);
          }
          signal?.addEventListener("abort", aborted, { once: true });
        });
      const paced = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          async transform(part, controller) {
            if (part.type !== "stream-start") await pause();
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream: paced };
    },
  };
}
