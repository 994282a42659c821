import { ASK_HEAD_EN, ASK_HEAD_ZH } from "./questions.ts";

/**
 * How the offline model reads words typed in a hurry on a phone: a period or a record's name
 * mistyped by the input method ("这个越" for 这个月, "做天" for 昨天, "定单" for 订单) is read as the
 * word it sounds like, and the reply says so first ("把“这个越”当作“这个月”"); a period word it
 * cannot read at all is asked about instead of left out, since leaving it out would answer for
 * every record ever.
 */
export interface Reading {
  /** The text with every mistyped word read as the word it stands for. */
  text: string;
  /** What was read into the text, to say with the answer: 把“这个越”当作“这个月”. */
  assumptions: string[];
  /** A period word that could not be read ("这个鈅"), to ask about; `null` when there is none. */
  unclear: string | null;
}

// Characters a pinyin input method offers for 月 (yue), 周 (zhou), 天 (tian), 期 (qi).
const YUE = "越悦阅跃粤岳乐钥曰约";
const ZHOU = "州洲舟粥";
const TIAN = "添田填甜";

// A word typed as another that sounds the same, and the word meant. Longest first where one
// contains another; each needs what comes before or after it to be read so (这个越 but not 越来越).
const MISTYPED: [RegExp, (match: string) => string][] = [
  [new RegExp(`(上上个|下下个|这个|上个|下个|本|这|上|下)[${YUE}](?![来过份])`, "g"), (m) => `${m.slice(0, -1)}月`],
  [new RegExp(`(上上|下下|这|本|上|下)[${ZHOU}](?![长到])`, "g"), (m) => `${m.slice(0, -1)}周`],
  [new RegExp(`(今|昨|前)[${TIAN}]`, "g"), (m) => `${m.slice(0, -1)}天`],
  [/(?<![今明前])[做作坐]天(?=[^气下地]|$)/g, () => "昨天"],
  [/金天/g, () => "今天"],
  [/星[其七奇]/g, () => "星期"],
  [/定单/g, () => "订单"],
  [/多少见|多少间/g, () => "多少件"],
  [/几见/g, () => "几件"],
  [/工姿|工咨|公资/g, () => "工资"],
];

// What follows a period word when it is one: a verb of work or pay, or what was made and earned.
const AFTER_PERIOD = "(?=[做挣赚干的拿发一总共计]|工资|计件|产量|件数|$)";
// "这个/上个/下个" and one character that is no period and no record of the workshop: a word that
// matters (it decides which records count) and that the model cannot read.
const UNREADABLE_PERIOD = new RegExp(
  `(?:上上个|下下个|这个|上个|下个)([^\\s\\d月周星礼拜天年季度人工订款单组班车线员师老客号件批活张位样些色码厂家部都也就还是要才又再能会该不没])${AFTER_PERIOD}`,
);

/**
 * The text as the model reads it: mistyped words read as the ones they sound like, each said as an
 * assumption, and a period word it cannot read.
 *
 * @example readWords("张三这个越做了多少件") // { text: "张三这个月做了多少件", assumptions: ["把“这个越”当作“这个月”"], unclear: null }
 */
export function readWords(text: string): Reading {
  let read = text;
  const assumptions: string[] = [];
  for (const [pattern, meant] of MISTYPED) {
    read = read.replace(pattern, (match) => {
      const word = meant(match);
      if (word !== match) assumptions.push(`把“${match}”当作“${word}”`);
      return word;
    });
  }
  const unclear = UNREADABLE_PERIOD.exec(read);
  return { text: read, assumptions: [...new Set(assumptions)], unclear: unclear ? unclear[0] : null };
}

/**
 * What the model asks when a period word cannot be read: which period is meant. It is a question
 * back, so the answer ("这个月") completes the request it asked about.
 */
export function askAboutUnclear(word: string, chinese: boolean): string {
  return chinese
    ? `${ASK_HEAD_ZH}\n\n- “${word}”我没看懂，说的是哪段时间？例如“这个月”“上个月”“这周”或“今天”。\n\n时间不同，件数和金额就不同，所以先问清楚。`
    : `${ASK_HEAD_EN}\n\n- I could not read "${word}": which period do you mean? For example this month, last month, this week or today.\n\nThe figures depend on it, so I ask first.`;
}
