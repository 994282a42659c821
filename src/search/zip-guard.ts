import { Inflate } from "fflate";
import { AppError } from "../errors.ts";
import { countWork } from "../work-count.ts";
import { problem } from "./file-problem.ts";

/** Parts a .docx or .xlsx may hold: Word and Excel write a few dozen, a workbook with many sheets a few hundred. */
export const MAX_ZIP_ENTRIES = 2_000;
/** What all its parts may inflate to, together: the parsers then hold this much XML in memory, within the Worker's 128 MB. */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

// Compressed input is fed to the inflater in slices this long, so one push can produce at most
// about 1,032 times as much (DEFLATE's best ratio) before the running total is checked.
const SLICE = 16 * 1024;
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * Checks an Office Open XML file (.docx, .xlsx) before a parser inflates it: a zip whose parts,
 * actually inflated here (not as their headers claim), number at most `MAX_ZIP_ENTRIES` and come
 * to at most `MAX_INFLATED_BYTES`, and fit in the file without sharing bytes. Inflation stops as soon as the total passes the limit, so a zip
 * bomb costs a bounded amount of time and memory. An Office file encrypted with a password is not
 * a zip but an OLE container, said so plainly. Time is linear in the file's size plus the limit.
 */
export function checkOfficeZip(bytes: Uint8Array, kind: "Word" | "Excel"): void {
  if (OLE_MAGIC.every((byte, i) => bytes[i] === byte)) {
    throw new AppError(
      "unparseable_document",
      `The ${kind} file is password-protected (or an old binary format); remove the password.`,
      {
        details: problem("encrypted"),
      },
    );
  }
  const damaged = () =>
    new AppError("unparseable_document", `The file is not a readable ${kind} file: it may be damaged.`, {
      details: problem("damaged", { kind }),
    });
  const tooBig = () =>
    new AppError(
      "payload_too_large",
      `The ${kind} file unpacks to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB or more than ${MAX_ZIP_ENTRIES} parts; it may be damaged or crafted.`,
      { details: problem("expands_too_much", { limit_mib: MAX_INFLATED_BYTES / 1024 / 1024 }) },
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endOfCentralDirectory(view);
  if (end < 0) throw damaged();
  const entries = view.getUint16(end + 10, true);
  if (entries > MAX_ZIP_ENTRIES) throw tooBig();
  let at = view.getUint32(end + 16, true);
  let inflated = 0;
  let consumed = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw damaged();
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const declared = view.getUint32(at + 24, true);
    const header = view.getUint32(at + 42, true);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (header + 30 > bytes.length || view.getUint32(header, true) !== 0x04034b50) throw damaged();
    const start = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
    if (start + compressed > bytes.length) throw damaged();
    // Parts that share their bytes (every entry naming one part) would have them inflated again for
    // each: past the file's length the parts overlap, which no writer does.
    consumed += compressed;
    if (consumed > bytes.length) throw damaged();
    const data = bytes.subarray(start, start + compressed);
    let size = 0;
    if (method === 0) size = compressed;
    else if (method === 8) {
      const inflater = new Inflate((chunk) => {
        size += chunk.length;
        if (inflated + size > MAX_INFLATED_BYTES) throw tooBig();
      });
      try {
        for (let i = 0; i < data.length; i += SLICE) inflater.push(data.subarray(i, i + SLICE), i + SLICE >= data.length);
        if (data.length === 0) inflater.push(new Uint8Array(0), true);
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw damaged();
      }
    } else throw damaged();
    countWork(compressed);
    // A part that inflates to other than its declared size is damaged, or lying to a parser that trusts it.
    if (size !== declared) throw damaged();
    inflated += size;
    if (inflated > MAX_INFLATED_BYTES) throw tooBig();
  }
}

/** The offset of the end-of-central-directory record, searched back over the largest comment, or -1. */
function endOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === 0x06054b50) return at;
  }
  return -1;
}
