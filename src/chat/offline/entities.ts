import { type OrderStatusFilter, orderStatusAt, orderStatusOfWords } from "../../status-words.ts";

// The most common Chinese surnames: a name is one of these and one or two more characters.
const SURNAMES = new Set(
  "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤",
);
// Characters that end a name: time words, verbs and particles that follow names in requests.
const AFTER_NAME = new Set(
  "今昨前这本上下做的录记登报帮替要工计件个月在了和与把给是有多少老总师资呢吗啊呀，,。？?！! 0123456789",
);
// Numerals end a name too ("李娟三百件"), except as its own last character ("张三上领子").
const NUMERALS = new Set("零〇一二两三四五六七八九十百千万");
const COUNTED = /^[零〇一二两三四五六七八九十百千万件个]?$/;
// Words that start like a name but are not one.
const NOT_NAMES = [
  "王老板",
  "老板",
  "高领",
  "方领",
  "高腰",
  "白色",
  "黄色",
  "金色",
  ..."一二三四五六日天末围".split("").map((d) => `周${d}`),
];

/** The first person named in Chinese ("给李娟记…", "张敏这个月的工资"), or in English ("for Li Juan"). */
export function findPersonName(text: string): string | null {
  const chars = [...text];
  for (let i = 0; i < chars.length - 1; i++) {
    const ch = chars[i] ?? "";
    if (!SURNAMES.has(ch)) continue;
    const second = chars[i + 1] ?? "";
    const third = chars[i + 2] ?? "";
    if (!/[\u4e00-\u9fff]/.test(second) || AFTER_NAME.has(second)) continue;
    // "张三十件" may be 张 and thirty pieces, but "张三十月" is 张三 in October.
    if (NUMERALS.has(second) && COUNTED.test(third) && !/[月号日]/.test(chars[i + 3] ?? "")) continue;
    const endsName = AFTER_NAME.has(third) || NUMERALS.has(third) || NUMERALS.has(second) || PROCESS_START.test(third);
    const name = /[\u4e00-\u9fff]/.test(third) && !endsName ? ch + second + third : ch + second;
    if (NOT_NAMES.some((word) => text.slice(text.indexOf(name)).startsWith(word))) continue;
    return name;
  }
  for (const match of text.matchAll(ENGLISH_NAME)) {
    const name = match[1] ?? "";
    if (!name.split(" ").some((word) => NOT_ENGLISH_NAMES.has(word.toLowerCase()))) return name;
  }
  return null;
}

// "for Li Juan", "did Zhang Min", "employee Wang": a capitalised word or two after a cue.
const ENGLISH_NAME = /\b(?:for|by|of|did|does|has|employee|worker|to)\s+([A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\b/g;
const NOT_ENGLISH_NAMES = new Set(
  "january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday today yesterday this last the weft".split(
    " ",
  ),
);

// Garment processes (工序) workshops name in requests, longest first so "上领子" wins over "上领".
const PROCESSES = [
  "合肩缝",
  "上拉链",
  "上领子",
  "上袖子",
  "钉纽扣",
  "锁扣眼",
  "上领",
  "绱领",
  "上袖",
  "绱袖",
  "锁边",
  "拷边",
  "钉扣",
  "锁眼",
  "车缝",
  "平车",
  "合缝",
  "卷边",
  "包装",
  "熨烫",
  "整烫",
  "裁剪",
  "开袋",
  "做领",
  "打结",
  "剪线",
  "查货",
  "压线",
  "拼接",
  "合肩",
].sort((a, b) => b.length - a.length);
// The parts a process works on: "做了50件领子" names the process by its part, and the tools find
// the one process that part belongs to ("领子" → "上领子"), or ask which when several do.
const PARTS = ["领子", "袖子", "袖口", "纽扣", "扣子", "扣眼", "拉链", "口袋", "裤腰", "门襟", "下摆", "裤脚", "领口"];
const PROCESS_START = new RegExp(`^[${[...new Set(PROCESSES.map((p) => p[0]))].join("")}]$`);
const ENGLISH_PROCESSES =
  /\b(collar(?: attaching)?|sleeves?|zipper|buttons?|buttonholes?|hemming|overlock(?:ing)?|ironing|pressing|packing|cutting|sewing)\b/i;

/** A process named in the text ("上领子", "锁边", "collar"), or the words before "工序". */
export function findProcess(text: string): string | null {
  for (const process of PROCESSES) if (text.includes(process)) return process;
  for (const part of PARTS) if (text.includes(part)) return part;
  const named = /[“"「]?([\u4e00-\u9fff]{2,5})[”"」]?\s*(?:这道)?工序/.exec(text);
  if (named?.[1] && !/什么|哪些|哪道|所有|全部|这道|每道|各道|每个|有的/.test(named[1])) return named[1];
  return ENGLISH_PROCESSES.exec(text)?.[1]?.toLowerCase() ?? null;
}

const COUNT = "(?:\\d+|[零〇一二两三四五六七八九十百千万]+)\\s*件";
// Words that follow a count without naming work ("50件，帮我记一下", "50件了吧").
const NOT_WORK = /^(?:帮|给|记|录|登|报|了|的|吧|呢|啊|呀|左右|上下|以上|一共|总共|合计)/;

/**
 * The work named right after a count ("张三今天做了50件褶裥" → "褶裥"), unless the words there ask
 * or tell something else.
 */
function processAfterCount(text: string): string | null {
  const after = new RegExp(`${COUNT}([\\u4e00-\\u9fff]{2,4})`).exec(text)?.[1];
  if (!after || NOT_WORK.test(after)) return null;
  return after.replace(/(?:帮|给|记|录|登|了|吧|呢).*$/, "") || null;
}

/**
 * The work named right before a count ("张三今天拼接50件" → "拼接"), once the person's name and
 * the date words are taken out: how a process outside the list above is still read.
 */
export function findProcessBeforeCount(text: string, name: string | null): string | null {
  let rest = name ? text.replace(name, " ") : text;
  rest = rest.replace(/今天|昨天|前天|今日|昨日|这个月|本月|上个月|给|帮|替|记|录入|登记|做了|做|了/g, " ");
  const before = new RegExp(`([\\u4e00-\\u9fff]{2,4})\\s*${COUNT}`).exec(rest)?.[1];
  const after = processAfterCount(text);
  return before ?? (after && after.length >= 2 ? after : null);
}

// Weft's own numbers: the year and its sequence, padded to three digits ("2026-015"). A number not
// joined to another by a dash (a phone's "138-1234-5678"), and a year whose "sequence" reads as a
// year ("2025-2026") or a month and day ("2026-1126"), is not one.
const WEFT_ORDER_NO = /(?<![\d-])(20\d{2})-(\d{3,5})(?![\d-])/g;

function looksLikeYearOrDay(sequence: string): boolean {
  if (sequence.length !== 4) return false;
  const [month, day] = [Number(sequence.slice(0, 2)), Number(sequence.slice(2))];
  return sequence.startsWith("20") || (month >= 1 && month <= 12 && day >= 1 && day <= 31);
}

/** An order number such as "JX-2024-001", "PO1234" or Weft's own "2026-015" (never a date's 2026-11). */
export function findOrderNo(text: string): string | null {
  // Four digits at least: a style's code ("A01", "A-102") is not an order's number.
  const lettered = /\b([A-Z]{1,5}-?\d{4,}(?:-\d+)*|[A-Z]{1,5}-\d{2,}(?:-\d+)+)\b/.exec(text);
  const own = [...text.matchAll(WEFT_ORDER_NO)].find((m) => !looksLikeYearOrDay(m[2] as string));
  if (lettered && own) return lettered.index < own.index ? (lettered[1] as string) : own[0];
  return lettered?.[1] ?? own?.[0] ?? null;
}

/**
 * The order statuses the text asks about, read as the `query_orders` tool reads its `status`
 * (src/status-words.ts): 还没完成, 没做完, 在做的 are the open ones, not the completed.
 */
export function findOrderStatus(text: string): OrderStatusFilter | null {
  return orderStatusOfWords(text);
}

// Kinds of garment a style is named by ("男式衬衫", "女式T恤").
const GARMENTS = /衬衫|衬衣|T恤|恤|裤|裙|外套|夹克|卫衣|毛衣|大衣|风衣|西装|马甲|背心|polo|套装|睡衣|校服|工装|童装/i;
// A style's code ("A01", "A-102", "ST2026"), standing alone.
const STYLE_CODE = /(?<![A-Za-z0-9-])([A-Z]{1,3}-?\d{2,4})(?![A-Za-z0-9-])/;
// What asks for the order, not who it is for: taken out of a part before it is read as a customer.
const ORDER_ASK = /帮我|帮忙|麻烦|请|给我|新建|新增|创建|添加|录入|建|开|下|一个|一张|个|订单|单子|一下|吧/g;

/**
 * The customer of a new order: "客户是华美", "给华美下一个订单", "for customer Acme", or the part of
 * a listed request that is neither a count, a date, a style nor the ask itself ("新建订单：海澜，A01
 * 男式衬衫，800 件，12 月 20 日交货", "海澜要800件A01").
 */
export function findCustomer(text: string): string | null {
  const named = /客户[是为:：\s]*([\u4e00-\u9fffA-Za-z0-9]{2,12}?)(?=[,，、。;；\s]|的|下|订|款|要|交|$)/.exec(text);
  if (named?.[1]) return named[1];
  const forWhom = /给([\u4e00-\u9fffA-Za-z0-9]{2,12}?)(?:新建|下|建|开)(?:一个|一张|个)?订单/.exec(text);
  if (forWhom?.[1]) return forWhom[1];
  const english = /\bcustomer\s+([A-Z][\w&.-]*(?:\s[A-Z][\w&.-]*)?)/.exec(text)?.[1];
  if (english) return english;
  for (const part of text.split(/[：:，,、；;。！!？?\n]+/)) {
    const lead = /^\s*([\u4e00-\u9fffA-Za-z&]{2,16}?)(?=要|的|订|$|\s|\d)/.exec(part.replace(ORDER_ASK, ""))?.[1];
    if (
      !lead ||
      lead.length < 2 ||
      GARMENTS.test(lead) ||
      STYLE_CODE.test(lead) ||
      /[件月日号交期款]|^(?:今|明|昨|本|这|下|上)/.test(lead)
    )
      continue;
    return lead;
  }
  return null;
}

/** The style of a new order: "款式T恤", "款号 A-102", "style A-102", a code alone ("A01"), or a garment ("男式衬衫"). */
export function findStyle(text: string): string | null {
  const named = /款(?:式|号)[是为:：\s]*([A-Za-z0-9-]{2,20}|[\u4e00-\u9fffA-Za-z0-9]{2,10}?)(?=[,，、。;；\s]|的|数|交|$)/.exec(
    text,
  );
  if (named?.[1]) return named[1];
  const english = /\bstyle\s+([\w-]{2,20})/i.exec(text)?.[1];
  if (english) return english;
  const code = STYLE_CODE.exec(text.replace(/(?<![\d-])20\d{2}-\d{1,2}-\d{1,2}/g, " "))?.[1];
  if (code) return code;
  for (const part of text.split(/[：:，,、；;。\s]+/)) {
    const garment =
      /^[\u4e00-\u9fffA-Za-z]{0,6}?(?:衬衫|衬衣|T恤|裤|裙|外套|夹克|卫衣|毛衣|大衣|风衣|西装|马甲|背心|套装|睡衣|校服|工装)$/i.exec(
        part.replace(ORDER_ASK, ""),
      );
    if (garment) return garment[0];
  }
  return null;
}

// Words before "的订单" that say which orders by something other than their customer.
const NOT_CUSTOMER = /[这那哪所全我你他她新旧快到期交要产完成取消下建增近今明昨本上月周年些个删除改延推了过中待多少几每的天]/;

// A name with the words for a status after it ("海澜还没完成", "优衣美在做"), cut before them.
function withoutStatus(name: string): string {
  const at = orderStatusAt(name);
  return at !== null && at >= 2 ? name.slice(0, at) : name;
}

/** The customer a list of orders is asked for by ("海澜的订单", "海澜那几张单子"). */
export function findOrderCustomer(text: string): string | null {
  const match = /([\u4e00-\u9fffA-Za-z&]{2,12})(?:的|那[几些]?张?)(?:订单|单子)/.exec(text);
  const said = match?.[1]?.replace(/^(?:那么?|还有|再看看?|换成|查一?下|看一?下|查|看|帮我|给我|列出|显示)+/, "");
  // "海澜还没完成的订单": the customer, then which of its orders.
  const name = said ? withoutStatus(said) : said;
  if (!name || name.length < 2 || NOT_CUSTOMER.test(name) || STYLE_CODE.test(name) || GARMENTS.test(name)) return null;
  // Words for which orders ("在做的订单", "没做完的单子") are a status, not a customer.
  if (orderStatusOfWords(name) !== null) return null;
  return name;
}

/** The style a list of orders is asked for by ("A01的订单", "男式衬衫的订单"). */
export function findOrderStyle(text: string): string | null {
  const match = /([A-Za-z0-9-]{2,12}|[\u4e00-\u9fffA-Za-z]{2,8})(?:的|那[几些]?张?)(?:订单|单子)/.exec(text)?.[1];
  if (!match) return null;
  if (STYLE_CODE.test(match) && /^[A-Z]/.test(match)) return match;
  const garment =
    /(?:男式|女式|男|女|儿童)?[\u4e00-\u9fff]{0,3}?(?:衬衫|衬衣|T恤|裤|裙|外套|夹克|卫衣|毛衣|大衣|风衣|西装|马甲|背心|套装|睡衣|校服|工装)$/.exec(
      match,
    );
  return garment?.[0] ?? null;
}

/**
 * A due date ("12月20日交货", "交期2026-12-20", "due 2026-12-20"), the next such day on or after
 * `today` when the year is left out.
 */
export function findDueDate(text: string, today: string): string | null {
  const iso = /(\d{4})-(\d{1,2})-(\d{1,2})/.exec(text);
  if (iso) return `${iso[1]}-${iso[2]?.padStart(2, "0")}-${iso[3]?.padStart(2, "0")}`;
  const cn = /(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/.exec(text);
  if (!cn) return null;
  const monthDay = `${cn[1]?.padStart(2, "0")}-${cn[2]?.padStart(2, "0")}`;
  const year = Number(today.slice(0, 4));
  return `${monthDay >= today.slice(5) ? year : year + 1}-${monthDay}`;
}
