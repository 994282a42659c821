import { AppError } from "../errors.ts";
import { problem } from "./file-problem.ts";

/** An image for text recognition: a photo as uploaded, or a scanned page's image as PNG. */
export interface OcrImage {
  bytes: Uint8Array;
  mediaType: string;
}

/**
 * Text recognition for photos and scans: Workers AI in production (`WorkersAiOcr`); offline,
 * `NoOcr`, which says plainly what such a file needs instead of indexing an empty document.
 */
export interface Ocr {
  /** Throws the 422 that says what a photo or a scan needs when no model is configured; returns otherwise. */
  require(what: "photo" | "scan"): void;
  /** The image's text as Markdown-flavoured lines. */
  read(image: OcrImage): Promise<string>;
}

/** The stand-in where no OCR model is configured (`npm run dev`, tests, self-hosting without Workers AI). */
export class NoOcr implements Ocr {
  require(what: "photo" | "scan"): void {
    throw new AppError(
      "unparseable_document",
      `This ${what === "photo" ? "photo" : "scanned PDF"} has no text layer and needs text recognition (OCR), which runs on the production model (OCR = "workers-ai"); none is configured here. Upload a text version (PDF with text, Word, text) instead.`,
      { details: problem("needs_ocr") },
    );
  }

  read(): Promise<string> {
    this.require("photo");
    return Promise.resolve("");
  }
}
