// Makes the workshop files the tests upload, with the third-party tools a workshop's files come
// from: Chromium prints the process sheet to PDF (and photographs a hand-written card), the `docx`
// package writes the Word file, SheetJS the Excel files, iconv-lite the GBK CSV that Chinese Excel
// saves, qpdf the password-protected PDF. The files are committed, so `npm test` needs none of these
// tools; run `node test/files/make.ts` after changing what they say (Chromium at /usr/bin/chromium,
// `apt-get install qpdf`).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as XLSX from "@e965/xlsx";
import { AlignmentType, Document, HeadingLevel, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from "docx";
import { strToU8, zipSync } from "fflate";
import iconv from "iconv-lite";
import { chromium } from "playwright-core";

const HERE = import.meta.dirname;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The process sheet: three printed pages, headings by font size, the 门襟 on page 2. */
const PROCESS_SHEET = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>衬衫工艺单</title>
<style>
  body { font-family: "Noto Sans CJK SC", sans-serif; font-size: 12pt; line-height: 1.6; }
  h1 { font-size: 22pt; } h2 { font-size: 16pt; }
  .page { break-after: page; }
</style></head><body>
<section class="page">
  <h1>衬衫工艺单</h1>
  <p>款号：CS-2026-18，男式长袖衬衫，订单数量 1200 件，交货日期 2026 年 12 月 20 日。</p>
  <h2>面料与辅料</h2>
  <p>面料为 100% 棉府绸，门幅 145 厘米，裁剪前需预缩。纽扣为 18 号四眼树脂扣，每件 7 粒，另配备用扣 1 粒。</p>
  <p>缝纫线用 60 支涤纶线，颜色与面料相同，针距每 3 厘米 13 针。</p>
</section>
<section class="page">
  <h2>门襟</h2>
  <p>门襟宽度为 3.5 厘米，门襟止口缉 0.1 厘米明线，里襟与门襟长短一致，不可起皱。</p>
  <p>门襟下摆处要方正，左右对称，误差不超过 0.2 厘米。</p>
  <h2>领子</h2>
  <p>领尖长 7 厘米，领角对称；上领时领面要平服，不可有链形。</p>
</section>
<section>
  <h2>锁眼钉扣</h2>
  <p>锁眼 7 个，眼距均匀；扣位与眼位对齐，钉扣每眼四股线。</p>
  <h2>整烫包装</h2>
  <p>整烫温度不超过 150 度，每件折叠后装入胶袋，每箱 24 件。</p>
</section>
</body></html>`;

/** A hand-written process card, as a phone photographs it: text only in pixels. */
const PROCESS_CARD = `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><style>
  body { margin: 0; background: #f4efe1; font-family: "Noto Serif CJK SC", serif; }
  .card { padding: 24px; font-size: 28px; transform: rotate(-2deg); color: #233; }
</style></head><body><div class="card">工序卡：上袖<br>单价 0.6 元<br>袖山对准肩缝</div></body></html>`;

async function chromiumFiles(): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 480, height: 200 } });
    await page.setContent(PROCESS_SHEET);
    await page.pdf({ path: join(HERE, "工艺单.pdf"), format: "A4" });
    await page.setContent(PROCESS_CARD);
    await page.screenshot({ path: join(HERE, "工序卡.png") });
    await page.screenshot({ path: join(HERE, "工序卡.jpg"), type: "jpeg", quality: 70 });
    // A scan: a PDF whose only content is the photograph, no text layer.
    const png = readFileSync(join(HERE, "工序卡.png")).toString("base64");
    await page.setContent(`<!doctype html><body style="margin:0"><img src="data:image/png;base64,${png}"></body>`);
    await page.pdf({ path: join(HERE, "扫描件.pdf"), format: "A5" });
  } finally {
    await browser.close();
  }
}

/** The maintenance rules: headings, paragraphs, a numbered list and a table, as Word writes them. */
async function wordFile(): Promise<void> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    title: "设备保养制度",
    numbering: {
      config: [
        {
          reference: "steps",
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: "%1.", alignment: AlignmentType.START }],
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ text: "设备保养制度", heading: HeadingLevel.HEADING_1 }),
          new Paragraph("为保证缝纫设备正常运转，减少断线、跳针，车间所有平车、锁边机按本制度保养。"),
          new Paragraph({ text: "日常保养", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "每天下班前清理梭床和送布牙上的线头与灰尘。", numbering: { reference: "steps", level: 0 } }),
          new Paragraph({ text: "每天开机前检查机针是否弯曲、针尖是否完好。", numbering: { reference: "steps", level: 0 } }),
          new Paragraph({ text: "离开机器超过 30 分钟要关闭电源。", numbering: { reference: "steps", level: 0 } }),
          new Paragraph({ text: "定期保养", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({
            children: [
              new TextRun("下表为各项保养的周期和负责人，"),
              new TextRun({ text: "不得漏做", bold: true }),
              new TextRun("。"),
            ],
          }),
          new Table({
            rows: [
              new TableRow({ children: [cell("项目"), cell("周期"), cell("负责人")] }),
              new TableRow({ children: [cell("加润滑油"), cell("每周一次"), cell("机修工")] }),
              new TableRow({ children: [cell("更换机针"), cell("每两周一次"), cell("车工本人")] }),
              new TableRow({ children: [cell("清洗油盘"), cell("每月一次"), cell("机修工")] }),
            ],
          }),
        ],
      },
    ],
  });
  writeFileSync(join(HERE, "设备保养制度.docx"), await Packer.toBuffer(doc));
}

/** The price list (two sheets) and an FAQ list, as SheetJS writes .xlsx. */
function excelFiles(): void {
  const prices = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    prices,
    XLSX.utils.aoa_to_sheet([
      ["工序", "单价（元）", "说明"],
      ["上领子", 0.8, "含绱领和压领"],
      ["上袖", 0.6, "左右各一"],
      ["锁眼", 0.23, "每件 7 个眼"],
      ["钉扣", 0.15, "每件 7 粒"],
      ["整烫", 0.35, "含折叠"],
    ]),
    "工价",
  );
  XLSX.utils.book_append_sheet(
    prices,
    XLSX.utils.aoa_to_sheet([
      ["事项", "内容"],
      ["生效日期", "2026 年 11 月 1 日"],
      ["结算方式", "按月结算，次月 10 日发放"],
    ]),
    "说明",
  );
  writeFileSync(join(HERE, "工价表.xlsx"), XLSX.write(prices, { type: "buffer", bookType: "xlsx", compression: true }));

  const faq = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    faq,
    XLSX.utils.aoa_to_sheet([
      ["标准问题", "相似问题", "答案"],
      ["断针了怎么办", "机针断了|针断了怎么处理", "立即停机，找齐断针的所有碎片交给组长登记，再换新针。"],
      ["次品谁来返工", "返修谁做", "谁做的次品谁返工，返工不计件。"],
    ]),
    "常见问题",
  );
  writeFileSync(join(HERE, "常见问题.xlsx"), XLSX.write(faq, { type: "buffer", bookType: "xlsx", compression: true }));
}

/** The night-shift rules as Excel saves CSV: UTF-8 with a BOM, and GBK as older Chinese Excel does. */
function csvFiles(): void {
  const rows = [
    ["项目", "规定"],
    ["夜班时间", "晚上 8 点到次日早上 6 点"],
    ["夜班补贴", "每晚 30 元，当月随工资发放"],
    ["夜宵", "凌晨 0 点由食堂提供"],
    ["请假", "夜班请假需提前一天告诉组长"],
  ];
  const csv = `${rows.map((r) => r.join(",")).join("\r\n")}\r\n`;
  writeFileSync(join(HERE, "夜班规定.csv"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, "utf8")]));
  writeFileSync(join(HERE, "夜班规定-gbk.csv"), iconv.encode(csv, "gbk"));
}

/** The process sheet with a user password, as qpdf encrypts it (AES-256). */
function encryptedPdf(): void {
  execFileSync("qpdf", ["--encrypt", "user-pw", "owner-pw", "256", "--", join(HERE, "工艺单.pdf"), join(HERE, "加密工艺单.pdf")]);
}

/** A .docx whose document part inflates to 256 MiB of spaces from about 250 kB: a zip bomb, by fflate. */
function zipBomb(): void {
  const bytes = zipSync({
    "[Content_Types].xml": strToU8('<?xml version="1.0"?><Types/>'),
    "word/document.xml": [new Uint8Array(256 * 1024 * 1024).fill(0x20), { level: 9 }],
  });
  writeFileSync(join(HERE, "炸弹.docx"), bytes);
}

await chromiumFiles();
await wordFile();
excelFiles();
csvFiles();
encryptedPdf();
zipBomb();
console.log("test/files: made");
