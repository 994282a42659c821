// Ingestion of the workshop's own files on `npm run dev`: pages or rows per second for each format
// (a Chromium-printed PDF, a Word file from the `docx` package, an Excel file and a CSV from
// SheetJS), each beside the same text uploaded as Markdown in the same run, at two or three sizes
// so that the cost per page or row shows whether parsing stays linear. Timed from the upload to the
// document being ready (a large file goes through the ingestion job).
import * as XLSX from "@e965/xlsx";
import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import { chromium } from "playwright-core";

const AUTH = { Authorization: "Bearer dev-boss-key" };
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const SENTENCES = [
  "门襟宽度为 3.5 厘米，止口缉 0.1 厘米明线，里襟与门襟长短一致。",
  "领尖长 7 厘米，领角对称，上领时领面要平服，不可有链形。",
  "锁眼 7 个，眼距均匀，扣位与眼位对齐，钉扣每眼四股线。",
  "整烫温度不超过 150 度，每件折叠后装入胶袋，每箱 24 件。",
  "缝纫线用 60 支涤纶线，针距每 3 厘米 13 针，线迹平整。",
];

/** Page `n`'s heading and paragraphs: about 1,200 Chinese characters, one A4 page at 11pt. */
function pageText(n: number): { heading: string; paragraphs: string[] } {
  const paragraphs = Array.from({ length: 6 }, (_, p) =>
    Array.from({ length: 4 }, (_, s) => SENTENCES[(n + p + s) % SENTENCES.length]).join(`第 ${n}-${p} 项：`),
  );
  return { heading: `第 ${n} 节 工艺要求`, paragraphs };
}

const markdownOfPages = (pages: number) =>
  Array.from({ length: pages }, (_, i) => {
    const { heading, paragraphs } = pageText(i + 1);
    return `## ${heading}\n\n${paragraphs.join("\n\n")}`;
  }).join("\n\n");

async function pdfOf(pages: number): Promise<Uint8Array> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    const body = Array.from({ length: pages }, (_, i) => {
      const { heading, paragraphs } = pageText(i + 1);
      return `<section style="break-after: page"><h2>${heading}</h2>${paragraphs.map((p) => `<p>${p}</p>`).join("")}</section>`;
    }).join("");
    await page.setContent(
      `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><body style="font: 11pt 'Noto Sans CJK SC'">${body}</body></html>`,
    );
    return new Uint8Array(await page.pdf({ format: "A4" }));
  } finally {
    await browser.close();
  }
}

async function docxOf(pages: number): Promise<Uint8Array> {
  const children = Array.from({ length: pages }, (_, i) => {
    const { heading, paragraphs } = pageText(i + 1);
    return [new Paragraph({ text: heading, heading: HeadingLevel.HEADING_2 }), ...paragraphs.map((p) => new Paragraph(p))];
  }).flat();
  return new Uint8Array(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

const rowsOf = (count: number) => [
  ["工序", "单价（元）", "说明"],
  ...Array.from({ length: count }, (_, i) => [`工序${i + 1}`, String((i % 97) / 100), `每件 ${(i % 9) + 1} 个眼`]),
];

const markdownOfRows = (rows: string[][]) =>
  [`## 工价`, "", `| ${rows[0]?.join(" | ")} |`, "| --- | --- | --- |", ...rows.slice(1).map((r) => `| ${r.join(" | ")} |`)].join(
    "\n",
  );

function xlsxOf(rows: string[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "工价");
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer);
}

const csvOf = (rows: string[][]) => new TextEncoder().encode(`${rows.map((r) => r.join(",")).join("\r\n")}\r\n`);

/** Uploads a file and waits until its document is ready; the seconds it took. */
async function ingest(baseUrl: string, kbId: string, name: string, bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  const form = new FormData();
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], name));
  const res = await fetch(`${baseUrl}/api/knowledge-bases/${kbId}/documents`, { method: "POST", headers: AUTH, body: form });
  const body = (await res.json()) as { status: string; status_url?: string; document: { status: string } };
  if (res.status >= 400) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
  let status = body.document.status;
  while (status !== "ready") {
    if (status === "failed") throw new Error(`${name} failed`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const read = await fetch(`${baseUrl}${body.status_url}`, { headers: AUTH });
    status = ((await read.json()) as { status: string }).status;
  }
  return (performance.now() - started) / 1000;
}

async function newBase(baseUrl: string, name: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/knowledge-bases`, {
    method: "POST",
    headers: { ...AUTH, "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  return ((await res.json()) as { id: string }).id;
}

interface Row {
  format: string;
  size: string;
  units: number;
  unit: string;
  fileSeconds: number;
  markdownSeconds: number;
}

/** Ingestion throughput per format against Markdown of the same text, at growing sizes. */
export async function benchIngest(baseUrl: string): Promise<void> {
  const cases: {
    format: string;
    unit: string;
    sizes: number[];
    make: (n: number) => Promise<{ name: string; bytes: Uint8Array; markdown: string }>;
  }[] = [
    {
      format: "PDF (Chromium)",
      unit: "pages",
      sizes: [50, 100, 200],
      make: async (n) => ({ name: `工艺-${n}.pdf`, bytes: await pdfOf(n), markdown: markdownOfPages(n) }),
    },
    {
      format: "Word (docx)",
      unit: "pages",
      sizes: [50, 200],
      make: async (n) => ({ name: `制度-${n}.docx`, bytes: await docxOf(n), markdown: markdownOfPages(n) }),
    },
    {
      format: "Excel (SheetJS)",
      unit: "rows",
      sizes: [5_000, 20_000],
      make: async (n) => ({ name: `工价-${n}.xlsx`, bytes: xlsxOf(rowsOf(n)), markdown: markdownOfRows(rowsOf(n)) }),
    },
    {
      format: "CSV",
      unit: "rows",
      sizes: [5_000, 20_000],
      make: async (n) => ({ name: `工价-${n}.csv`, bytes: csvOf(rowsOf(n)), markdown: markdownOfRows(rowsOf(n)) }),
    },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    for (const size of c.sizes) {
      const made = await c.make(size);
      const kb = await newBase(baseUrl, `ingest-${made.name}`);
      const fileSeconds = await ingest(baseUrl, kb, made.name, made.bytes);
      const markdownSeconds = await ingest(baseUrl, kb, `${made.name}.md`, new TextEncoder().encode(made.markdown));
      rows.push({
        format: c.format,
        size: `${(made.bytes.length / 1024).toFixed(0)} kB`,
        units: size,
        unit: c.unit,
        fileSeconds,
        markdownSeconds,
      });
    }
  }
  console.log("\nIngestion: upload to ready, per format, against the same text as Markdown (same run, same server)");
  console.log("| format | file | units | file: units/s | Markdown: units/s | file / Markdown time |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(
      `| ${r.format} | ${r.size} | ${r.units} ${r.unit} | ${(r.units / r.fileSeconds).toFixed(0)} | ${(r.units / r.markdownSeconds).toFixed(0)} | ${(r.fileSeconds / r.markdownSeconds).toFixed(2)}× |`,
    );
  }
}
