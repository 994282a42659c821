import type { BothLanguages } from "../shapes.ts";
import type { Role } from "../user-context.ts";

/**
 * What people of a workshop ask to change, each with the words they use for it, what it is called,
 * who decides it, and what it is made of. A tool that changes one says so in its words
 * (`ToolWords.changes`); a request to change one that no tool changes is answered with a plain
 * refusal that says who can, read from the registry, so that a tool added later (a new unit price
 * from a date, an allowance) is offered in the refusal's place without a word changed here.
 */
export interface ChangeSubject {
  /** How people name it in a request to change it. */
  words: RegExp;
  /** What it is called in a sentence ("工序单价"). */
  name: BothLanguages;
  /** The least role that decides it in a workshop. */
  decidedBy: Role;
  /**
   * What it is worked out from, when it is not kept as such (pay: piece records, allowances and
   * deductions): a tool that changes one of those is how it changes.
   */
  madeOf?: readonly string[];
  /** Why it is so, in half a sentence (工资按计件记录、补贴和扣款现算). */
  why?: BothLanguages;
  /** How to ask for it in the chat, where a tool changes it (said in its refusal's place). */
  say?: BothLanguages;
  /** Where in Weft's settings its person changes it, where that is not a tool. */
  place?: BothLanguages;
}

const w = (zh: string, en: string): BothLanguages => ({ zh, en });

/** The things a request may ask to change, most specific first: "补贴" is read before "工资". */
export const CHANGE_SUBJECTS = {
  adjustment: {
    words: /补贴|扣款|奖金|罚款|全勤奖?|餐补|\b(?:allowances?|deductions?|bonus(?:es)?)\b/i,
    name: w("补贴和扣款", "allowances and deductions"),
    decidedBy: "boss",
    say: w("“给李娟这个月加50块全勤奖”“扣张敏20块”", '"give 李娟 a 50 yuan allowance this month"'),
  },
  pay: {
    words: /工资|薪水|薪资|工钱|实发|\b(?:pay|payroll|wages?|salar(?:y|ies))\b/i,
    name: w("工资", "pay"),
    decidedBy: "boss",
    madeOf: ["piece_record", "adjustment"],
    why: w(
      "工资是按计件记录、补贴和扣款现算的，没有可以直接改的工资数",
      "pay is worked out from piece records, allowances and deductions; there is no pay figure to edit",
    ),
  },
  unit_price: {
    words: /单价|工价|价格|价钱|多少钱一件|一件多少钱|\b(?:unit )?prices?\b|\brates?\b/i,
    name: w("工序单价", "unit prices"),
    decidedBy: "boss",
    say: w("“上领子改成九毛，从下个月一号起”", '"上领子改成九毛，从下个月一号起"'),
  },
  account: {
    words: /密码|账号|用户名|角色|权限|\b(?:password|account|role)\b/i,
    name: w("账号", "accounts"),
    decidedBy: "boss",
    place: w("“设置 → 人员”（自己的密码在“设置 → 密码”）", "Settings → People (your own password: Settings → Password)"),
  },
  workshop: {
    words: /车间(?:的)?名[称字]|厂名|时区|\btime ?zone\b|\bworkshop name\b/i,
    name: w("车间的名称和时区", "the workshop's name and time zone"),
    decidedBy: "boss",
    say: w("“把车间名称改成锦绣服装厂”", '"把车间名称改成锦绣服装厂"'),
  },
  piece_record: {
    words: /计件|件数|记录|登记的|做了\d+件|\bpiece records?\b/i,
    name: w("已登记的计件", "saved piece records"),
    decidedBy: "boss",
  },
  order: {
    words: /订单|单子|交期|交货日期|\borders?\b|\bdue dates?\b/i,
    name: w("已有的订单", "existing orders"),
    decidedBy: "boss",
    say: w(
      "“把订单2026-001的数量改成900”“2026-001 推迟到12月20日交货”“2026-001 做完了”",
      '"把订单2026-001的数量改成900", "2026-001 推迟到12月20日交货"',
    ),
  },
  employee: {
    words: /员工|工人|工号|档案|花名册|\b(?:employees?|workers?)\b/i,
    name: w("员工档案", "employee records"),
    decidedBy: "boss",
    say: w("“新来了一个员工叫王强，电话13800138000”", '"新来了一个员工叫王强，电话13800138000"'),
  },
  style: {
    words: /款式|款号|\bstyles?\b/i,
    name: w("款式", "styles"),
    decidedBy: "boss",
    say: w("“新加一个款式A03，童装衬衫”", '"新加一个款式A03，童装衬衫"'),
  },
  process: {
    words: /工序|\bprocess(?:es)?\b/i,
    name: w("工序", "processes"),
    decidedBy: "boss",
    say: w("“A01加一道工序锁眼，单价5毛”“把锁眼停用”“重新启用锁眼”", '"A01加一道工序锁眼，单价5毛", "把锁眼停用"'),
  },
} as const satisfies Record<string, ChangeSubject>;

export type ChangeSubjectName = keyof typeof CHANGE_SUBJECTS;

/** The subject a request to change something names, most specific first; `null` when it names none. */
export function changeSubjectOf(text: string): ChangeSubjectName | null {
  for (const [name, subject] of Object.entries(CHANGE_SUBJECTS) as [ChangeSubjectName, ChangeSubject][]) {
    if (subject.words.test(text)) return name;
  }
  return null;
}
