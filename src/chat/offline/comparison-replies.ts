import { addMonths, monthRange } from "../../business/local-time.ts";
import { yuan } from "../../business/money.ts";
import type { Comparison } from "./comparisons.ts";
import { rangeWords } from "./due-dates.ts";
import { type Cell, grouped, markdownTable } from "./tables.ts";

type Output = Record<string, unknown>;

function record(value: unknown): Output {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Output) : {};
}

function cents(value: unknown): number {
  const amount = record(value).cents;
  return typeof amount === "number" ? amount : 0;
}

function count(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

const money = (amount: number): string => `${amount < 0 ? "-" : ""}¥${grouped(yuan(Math.abs(amount)))}`;
const figure = (text: string): Cell => ({ text, figure: true });
const word = (text: string): Cell => ({ text, figure: false });
// A difference with its sign, so a row of differences reads as one: +400, -¥12.50.
const signed = (n: number, show: (n: number) => string) => `${n > 0 ? "+" : n < 0 ? "-" : ""}${show(Math.abs(n))}`;

/** How one side of a comparison is named: its period's name ("上个月"), and the dates it covers. */
interface Side {
  name: string;
  span: string;
}

// A period's name as the tool's applied period shows it: 上个月, 本周, or its month (2026-09) or dates.
function sideOfRange(output: Output, chinese: boolean): Side {
  const range = record(output.period);
  const from = String(range.from ?? "");
  const to = String(range.to ?? "");
  const today = String(output.today ?? "");
  const { name, span } = rangeWords({ from, to }, today, chinese);
  const month = from.slice(0, 7);
  const whole = monthRange(month);
  return { name: name ?? (whole.from === from && whole.to === to ? month : span), span };
}

function sideOfMonth(output: Output, chinese: boolean): Side {
  const month = String(output.month ?? "");
  const today = String(output.today ?? "");
  const name =
    month === today.slice(0, 7)
      ? chinese
        ? "本月"
        : "this month"
      : month === addMonths(today, -1)
        ? chinese
          ? "上个月"
          : "last month"
        : month;
  return { name, span: month };
}

// Who the figures are about: the person named, else "you" (staff see their own) or the workshop.
function whoOf(comparison: Comparison, output: Output, chinese: boolean): string {
  const slips = Array.isArray(output.payslips) ? output.payslips.map(record) : [];
  const named = slips.length === 1 ? record(slips[0]?.employee).name : undefined;
  if (typeof named === "string") return named;
  if (comparison.employee) return comparison.employee;
  if (output.scope === "own") return chinese ? "你" : "You";
  return chinese ? "全车间" : "The workshop";
}

// "上个月比本月多做 400 件" / "400 more pieces last month than this month".
function differenceWords(
  a: Side,
  b: Side,
  diff: number,
  unit: { zh: [string, string]; en: string },
  shown: string,
  chinese: boolean,
) {
  if (chinese) {
    if (diff === 0) return `${a.name}和${b.name}一样多`;
    return `${a.name}比${b.name}${diff > 0 ? unit.zh[0] : unit.zh[1]} ${shown}`;
  }
  if (diff === 0) return `the same ${a.name} as ${b.name}`;
  return `${shown} ${diff > 0 ? "more" : "less"}${unit.en} ${a.name} than ${b.name}`;
}

function piecesReply(comparison: Comparison, subject: Output, base: Output, chinese: boolean): string {
  const a = sideOfRange(subject, chinese);
  const b = sideOfRange(base, chinese);
  const [ta, tb] = [record(subject.totals), record(base.totals)];
  const pieces = [count(ta.pieces), count(tb.pieces)] as const;
  const amounts = [cents(ta.amount), cents(tb.amount)] as const;
  const dPieces = pieces[0] - pieces[1];
  const dAmount = amounts[0] - amounts[1];
  const who = whoOf(comparison, subject, chinese);
  const n = (x: number) => grouped(String(x));
  let sentence: string;
  if (comparison.measure === "pay") {
    // Pay over days or weeks is what the piece records are worth: payslips are kept by month.
    const diff = differenceWords(a, b, dAmount, { zh: ["多挣", "少挣"], en: "" }, money(Math.abs(dAmount)), chinese);
    sentence = chinese
      ? `${who}${a.name}计件金额 ${money(amounts[0])}，${b.name} ${money(amounts[1])}：${diff}（按计件金额算，补贴和扣款按月结）。`
      : `${who} earned ${money(amounts[0])} in piece work ${a.name} and ${money(amounts[1])} ${b.name}: ${diff} (piece work only; allowances and deductions are monthly).`;
  } else {
    const diff = differenceWords(
      a,
      b,
      dPieces,
      { zh: ["多做", "少做"], en: " pieces" },
      `${n(Math.abs(dPieces))}${chinese ? " 件" : ""}`,
      chinese,
    );
    sentence = chinese
      ? `${who}${a.name}做了 ${n(pieces[0])} 件，${b.name}做了 ${n(pieces[1])} 件：${diff}。`
      : `${who} did ${n(pieces[0])} pieces ${a.name} and ${n(pieces[1])} ${b.name}: ${diff}.`;
  }
  const row = (side: Side, p: number, m: number) =>
    new Map([
      ["period", word(side.name)],
      ["span", word(side.span)],
      ["pieces", figure(n(p))],
      ["amount", figure(money(m))],
    ]);
  const headings = new Map(
    chinese
      ? [
          ["period", "时段"],
          ["span", "日期"],
          ["pieces", "件数"],
          ["amount", "金额"],
        ]
      : [
          ["period", "Period"],
          ["span", "Dates"],
          ["pieces", "Pieces"],
          ["amount", "Amount"],
        ],
  );
  const table = markdownTable([row(a, pieces[0], amounts[0]), row(b, pieces[1], amounts[1])], (k) => headings.get(k) ?? k, {
    label: chinese ? "相差" : "Difference",
    cells: new Map([
      ["pieces", figure(signed(dPieces, n))],
      ["amount", figure(signed(dAmount, money))],
    ]),
  });
  return `${sentence}\n\n${table}`;
}

const PAY_FIELDS = ["pieces", "piece_wage", "allowances", "deductions", "net_pay"] as const;

function payReply(comparison: Comparison, subject: Output, base: Output, chinese: boolean): string {
  const a = sideOfMonth(subject, chinese);
  const b = sideOfMonth(base, chinese);
  const [ta, tb] = [record(subject.totals), record(base.totals)];
  const value = (totals: Output, key: (typeof PAY_FIELDS)[number]) =>
    key === "pieces" ? count(totals.pieces) : cents(totals[key]);
  const show = (key: (typeof PAY_FIELDS)[number], x: number) => (key === "pieces" ? grouped(String(x)) : money(x));
  const net = [value(ta, "net_pay"), value(tb, "net_pay")] as const;
  const dNet = net[0] - net[1];
  const who = whoOf(comparison, subject, chinese);
  const diff = differenceWords(a, b, dNet, { zh: ["多挣", "少挣"], en: "" }, money(Math.abs(dNet)), chinese);
  const when = (side: Side) =>
    side.name === side.span ? side.name : chinese ? `${side.name}（${side.span}）` : `${side.name} (${side.span})`;
  const sentence = chinese
    ? `${who}${when(a)}实发 ${money(net[0])}，${when(b)}实发 ${money(net[1])}：${diff}。`
    : `${who}'s net pay: ${money(net[0])} ${when(a)}, ${money(net[1])} ${when(b)}; ${diff}.`;
  const row = (side: Side, totals: Output) =>
    new Map<string, Cell>([
      ["month", word(when(side))],
      ...PAY_FIELDS.map((key) => [key, figure(show(key, value(totals, key)))] as const),
    ]);
  const headings = new Map(
    chinese
      ? [
          ["month", "月份"],
          ["pieces", "件数"],
          ["piece_wage", "计件工资"],
          ["allowances", "补贴"],
          ["deductions", "扣款"],
          ["net_pay", "实发"],
        ]
      : [
          ["month", "Month"],
          ["pieces", "Pieces"],
          ["piece_wage", "Piece wage"],
          ["allowances", "Allowances"],
          ["deductions", "Deductions"],
          ["net_pay", "Net pay"],
        ],
  );
  const differences = new Map(
    PAY_FIELDS.map((key) => [key, figure(signed(value(ta, key) - value(tb, key), (x) => show(key, x)))] as const),
  );
  const table = markdownTable([row(a, ta), row(b, tb)], (k) => headings.get(k) ?? k, {
    label: chinese ? "相差" : "Difference",
    cells: differences,
  });
  return `${sentence}\n\n${table}`;
}

/**
 * The answer to a comparison from the two results, subject first: one sentence with both totals
 * and the difference, then a small table of the two periods with the difference as its last row.
 */
export function comparisonReply(
  comparison: Comparison,
  toolName: string,
  subject: unknown,
  base: unknown,
  chinese: boolean,
): string {
  return toolName === "query_payroll"
    ? payReply(comparison, record(subject), record(base), chinese)
    : piecesReply(comparison, record(subject), record(base), chinese);
}
