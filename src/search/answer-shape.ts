// What a question asks for, read from its wording, and whether a passage has that kind of answer;
// and what kind of fact a passage states, whatever the question. Bag-of-words search cannot tell a
// passage that answers "when" from one that only shares the topic; a passage with no date cannot
// answer it. Measured on rgb-zh-dev (docs/search-quality.md).

// An English "when" asks only at the start: "What happened when the war ended?" does not ask for a date.
const ASKS_WHEN =
  /时间|日期|何时|什么时候|哪天|哪一天|哪一年|哪年|几月|几号|^\s*when\b|\b(?:what|which) (?:year|date|day|month|century|decade)\b/i;
const ASKS_AMOUNT =
  /多少|数量|几个|几名|几人|几次|几岁|增长率|票房|金额|人数|\bhow (?:many|much|long|old|far)\b|\bwhat percentage\b/i;
// A Chinese "when" wants a day or a month when the question names the year already, else a year will do.
// The lookbehind tries a run of numerals from its head only, so a long run without 月 costs one pass.
const HAS_DAY_ZH = /\d{1,2}月\d{1,2}[日号]|\d{1,2}[日号]|\d{1,2}月|(?<![一二三四五六七八九十])[一二三四五六七八九十]+月/;
const HAS_YEAR_ZH = /\d{4}年|[〇零一二三四五六七八九]{4}年/;
const YEAR = /\d{4}/;
const HAS_DATE_EN =
  /\b1\d{3}\b|\b20\d{2}\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
const CJK = /[\u3400-\u9fff]/;
const HAS_NUMBER = /\d|[零一二两三四五六七八九十百千万亿]{2,}/;
const DIGITS = /\d+(?:\.\d+)?/g;

/**
 * 1 when the passage holds the kind of answer the question asks for (a date for "when", a number
 * for "how many"), or when the question asks for neither; 0 otherwise.
 */
export function answerShapeMatch(query: string, passage: string): number {
  return answerShapeTest(query)(passage);
}

/** `answerShapeMatch` for one question, read once, over any number of passages. */
export function answerShapeTest(query: string): (passage: string) => number {
  if (ASKS_WHEN.test(query)) {
    if (!CJK.test(query)) return (passage) => (HAS_DATE_EN.test(passage) ? 1 : 0);
    const yearAsked = YEAR.test(query);
    return (passage) => (HAS_DAY_ZH.test(passage) || (!yearAsked && HAS_YEAR_ZH.test(passage)) ? 1 : 0);
  }
  if (ASKS_AMOUNT.test(query)) return (passage) => (HAS_NUMBER.test(passage) ? 1 : 0);
  return () => 1;
}

/** Whether the question asks for a date or an amount, the kinds of answer `answerShapeMatch` can see. */
export function asksForShape(query: string): boolean {
  return ASKS_WHEN.test(query) || ASKS_AMOUNT.test(query);
}

/**
 * The share of the query's numbers (years, counts, codes) that the passage also contains; 1 for a
 * query without numbers. "2022年特斯拉交付量" is not answered by a passage about 2021.
 */
export function numberMatch(query: string, passage: string): number {
  return numberTest(query)(passage);
}

/** `numberMatch` for one question, its numbers read once, over any number of passages. */
export function numberTest(query: string): (passage: string) => number {
  const wanted = [...new Set(query.normalize("NFKC").match(DIGITS) ?? [])];
  if (wanted.length === 0) return () => 1;
  return (passage) => {
    const present = new Set(passage.normalize("NFKC").match(DIGITS) ?? []);
    return wanted.filter((n) => present.has(n)).length / wanted.length;
  };
}

// A number with what it counts or measures ("12人", "1.5亿元", "三艘"), and a day or time of day
// ("5月6日", "18日", "凌晨"). The lookbehinds start a match only at the head of a run of digits or
// numerals, so each scan stays linear in the text.
const QUANTITY =
  /(?<![\d.])\d+(?:\.\d+)? ?(?:万|亿|千|百)?(?:人|名|个|家|次|座|条|位|项|辆|架|艘|枚|元|美元|吨|%|万|亿|台|部|票)|(?<![一二三四五六七八九十百千万亿两])[一二三四五六七八九十百千万亿两]+(?:人|名|个|家|次|座|条|位|项|辆|架|艘|枚|元)/;
const MOMENT =
  /(?<!\d)\d{1,2}月\d{1,2}日|(?<!\d)\d{1,2}日|(?<![一二三四五六七八九十])[一二三四五六七八九十]+月[一二三四五六七八九十]+日|\d{4}年\d{1,2}月|今天|明天|昨天|上午|下午|晚上|凌晨/;

/**
 * What kind of fact a passage states, whatever the question: a quantity, a moment, each 0 or 1.
 * News that answers a question tends to report its fact as a number or a day; on-topic news that
 * does not answer it tends to comment on it (measured on rgb-zh-dev, docs/search-quality.md).
 */
export function statedFacts(text: string): { quantity: number; moment: number } {
  return { quantity: QUANTITY.test(text) ? 1 : 0, moment: MOMENT.test(text) ? 1 : 0 };
}
