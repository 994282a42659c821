// The words for the statuses people read, in both languages, written once: the server's replies
// (the offline model's tables, an order's label, a chat's export) and the browser (confirm cards,
// tool cards, a decided card's line) all take them from here. It imports nothing, so the browser
// may import it at runtime without pulling server code into its bundle (.dependency-cruiser.cjs).

export type StatusLang = "zh" | "en";

type Words = Readonly<Record<StatusLang, string>>;

/** An order's status (`orders.status`), as the workshop guide names it. */
export const ORDER_STATUS_WORDS = {
  pending: { zh: "待生产", en: "pending" },
  in_production: { zh: "生产中", en: "in production" },
  completed: { zh: "已完成", en: "completed" },
  cancelled: { zh: "已取消", en: "cancelled" },
} as const satisfies Record<string, Words>;

/** Orders still to deliver (the `open` filter of `query_orders`). */
export const OPEN_ORDERS_WORDS: Words = { zh: "未完成", en: "open" };

/**
 * Where a prepared write stands, declared once: `confirming` while a confirm is writing it (a
 * confirm that meets it is told "in progress" rather than made to wait), the last three final.
 */
export const ACTION_STATUSES = ["pending", "confirming", "confirmed", "cancelled", "expired", "failed"] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** A pending write's status (a confirm card's badge). */
export const ACTION_STATUS_WORDS = {
  pending: { zh: "待确认", en: "pending" },
  confirming: { zh: "正在写入", en: "being written" },
  confirmed: { zh: "已确认", en: "confirmed" },
  cancelled: { zh: "已取消", en: "cancelled" },
  expired: { zh: "已过期", en: "expired" },
  failed: { zh: "失败", en: "failed" },
} as const satisfies Record<ActionStatus, Words>;

// What became of a decided write, where the reply had asked to decide it.
const DECIDED_WORDS: Record<string, Words> = {
  confirmed: { zh: "已确认", en: "Confirmed" },
  cancelled: { zh: "已取消", en: "Cancelled" },
  expired: { zh: "已过期，没有写入", en: "Expired; nothing was written" },
  failed: { zh: "没有写入", en: "Not written" },
};

/**
 * The line under a prepared write asking to decide its card. Once the card is decided, the chat,
 * its history and its export show `decidedLine` in its place.
 */
export const DECIDE_LINES: Readonly<Record<StatusLang, string>> = {
  zh: "请在上面的确认卡片上点“确认”或“取消”。确认之前不会写入任何数据。",
  en: "Use Confirm or Cancel on the card above. Nothing is written until you confirm.",
};

/**
 * What a card with an open question (which of two orders) and the reply under it both say: a tap on
 * a candidate, or a short answer in the chat, prepares the write again with that choice.
 */
export const CHOICE_LINES: Readonly<Record<StatusLang, string>> = {
  zh: "点一个选项，或者在对话里直接回复（例如“2026-001”“第一个”），我会重新准备一张确认卡片；这一张不能确认。",
  en: "Tap an option, or reply in the chat (an order number, or “the first one”), and I prepare a new card; this one cannot be confirmed.",
};

/** The word for a status code in a table of them, or the code itself when the table has none. */
export function statusWord(table: Readonly<Record<string, Words>>, code: string, lang: StatusLang): string {
  return Object.hasOwn(table, code) ? (table[code] as Words)[lang] : code;
}

/**
 * The line that says what became of a decided card, with what the write reported when it was
 * confirmed or failed: "已确认：已登记。", "已取消。", "Expired; nothing was written.". `null` while
 * it is still pending.
 *
 * @example decidedLine("confirmed", "已登记", "zh") // "已确认：已登记。"
 */
export function decidedLine(status: string, result: string | undefined, lang: StatusLang): string | null {
  if (!Object.hasOwn(DECIDED_WORDS, status)) return null;
  const word = (DECIDED_WORDS[status] as Words)[lang];
  const told = result && (status === "confirmed" || status === "failed") ? result.replace(/[。.]$/, "") : "";
  if (lang === "zh") return told ? `${word}：${told}。` : `${word}。`;
  return told ? `${word}: ${told}.` : `${word}.`;
}

/** The statuses an order filter names: one of an order's, or `open` (待生产 and 生产中). */
export type OrderStatusFilter = keyof typeof ORDER_STATUS_WORDS | "open";

// How people say which orders they mean, most specific first: "还没做完" is open although it holds
// "做完", and "还没做" (not started) is pending although "还没" alone would read as open.
const ORDER_STATUS_PHRASES: readonly [RegExp, OrderStatusFilter][] = [
  [
    /未完成|还?没(?:有)?完成|还?没(?:有)?做完|还?没(?:有)?[做弄]好|在做的?|还在做|进行中|未结束|还?没结束|还?没交(?:货)?|未交(?:货)?|\bopen\b|\bunfinished\b|\bnot (?:yet )?(?:done|finished|completed)\b|\boutstanding\b/i,
    "open",
  ],
  [/生产中|在生产|\bin[ _]production\b/i, "in_production"],
  [/待生产|未开始|还?没(?:有)?开始|还?没(?:有)?做|\bpending\b|\bnot started\b/i, "pending"],
  [/取消|\bcancel(?:l)?ed\b/i, "cancelled"],
  [/已完成|完成了|做完了?|做好了|交货了|已交货?|\bcompleted\b|\bfinished\b|\bdone\b/i, "completed"],
];

/**
 * The order statuses words ask for, read the same way by the `query_orders` tool's `status` and the
 * offline model: 还没完成, 没做完, 在做的 are the open orders (待生产 and 生产中), 已完成 the completed
 * ones; `null` when the words name none.
 *
 * @example orderStatusOfWords("哪些订单还没完成") // "open"
 */
export function orderStatusOfWords(text: string): OrderStatusFilter | null {
  for (const [words, status] of ORDER_STATUS_PHRASES) if (words.test(text)) return status;
  return null;
}

/** Where the first words for an order status start in `text` ("海澜还没完成" → 2), or `null`. */
export function orderStatusAt(text: string): number | null {
  const found = ORDER_STATUS_PHRASES.map(([words]) => words.exec(text)?.index).filter((i): i is number => i !== undefined);
  return found.length > 0 ? Math.min(...found) : null;
}
