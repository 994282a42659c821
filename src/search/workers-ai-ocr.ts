import { AppError } from "../errors.ts";
import { problem } from "./file-problem.ts";
import type { Ocr, OcrImage } from "./ocr.ts";

/**
 * Gemma 3 12B on Workers AI: a vision model that reads text in 140 languages, Chinese print and
 * handwriting among them, and takes an image in the chat messages. The captioning models
 * (LLaVA 1.5, UForm) describe a picture rather than transcribe it, Llama 3.2 Vision needs a licence
 * accepted per account and is weaker on Chinese, and Mistral Small 3.1 (24B) costs about twice as
 * much per token for no gain in reading a process card.
 */
export const OCR_MODEL = "@cf/google/gemma-3-12b-it";

const PROMPT =
  "Transcribe all the text in this image exactly as written, in its original language (do not translate). " +
  "Keep the reading order. Write a table as a Markdown table and a heading as a Markdown heading. " +
  "Output only the transcription; if there is no text, output nothing.";

/** Text recognition by `OCR_MODEL`. */
export class WorkersAiOcr implements Ocr {
  readonly #ai: Ai;

  constructor(ai: Ai) {
    this.#ai = ai;
  }

  require(): void {}

  async read(image: OcrImage): Promise<string> {
    let base64 = "";
    for (let i = 0; i < image.bytes.length; i += 0x8000) {
      base64 += String.fromCharCode(...image.bytes.subarray(i, i + 0x8000));
    }
    const url = `data:${image.mediaType};base64,${btoa(base64)}`;
    let text: unknown;
    try {
      const output = (await this.#ai.run(OCR_MODEL, {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: PROMPT },
              { type: "image_url", image_url: { url } },
            ],
          },
        ],
        max_tokens: 4096,
        temperature: 0,
      })) as { response?: unknown };
      text = output.response;
    } catch (error) {
      throw new AppError("upstream_failed", "Text recognition (Workers AI) failed; try again later.", {
        cause: error,
        retryable: true,
        details: problem("ocr_failed"),
      });
    }
    return typeof text === "string" ? text.trim() : "";
  }
}
