/**
 * What the offline model asks when a request leaves out what a tool needs, and what it says when a
 * tool refuses: in the person's language, naming what is missing and what to do, never the
 * agent-facing English of a validation error.
 */

/** The line that starts a question back: the next turn reads the request it completes. */
export const ASK_HEAD_ZH = "还差一点信息：";
export const ASK_HEAD_EN = "I need a little more to go on:";

// Each argument a person may leave out, asked for in words. A field not listed here is asked for
// by its schema's description (external tools) or its name.
const FIELD_QUESTIONS: Record<string, [zh: string, en: string]> = {
  employee: ["是谁做的？说出员工的名字，例如“张三”。", "Whose pieces are they? Give the employee's name."],
  process: ["是哪道工序？例如“上领子”“锁边”，说部位（“领子”）也行。", "Which process? For example collar or hemming."],
  quantity: ["多少件？", "How many pieces?"],
  customer: ["客户是谁？", "Who is the customer?"],
  style: ["款式是哪一个？说款号或名称，例如“A01”“男式衬衫”。", "Which style? Its code (A01) or name."],
  due_date: ["哪天交货？例如“12月20日”。", "When is it due? For example December 20."],
  query: ["要查什么？", "What should I look for?"],
};

function own(table: Record<string, [string, string]>, key: string): [string, string] | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The question for each missing argument, with `describe` naming fields this module does not know. */
export function askFor(missing: string[], chinese: boolean, describe: (field: string) => string | undefined): string {
  const lines = missing.map((field) => {
    const known = own(FIELD_QUESTIONS, field);
    if (known) return chinese ? known[0] : known[1];
    const said = describe(field);
    return chinese ? `${field}${said ? `（${said}）` : ""}是什么？` : `What is ${field}${said ? ` (${said})` : ""}?`;
  });
  const tail = chinese ? "直接回复就行，我会连同前面说的一起准备。" : "Just reply; I will put it together with what you said.";
  return `${chinese ? ASK_HEAD_ZH : ASK_HEAD_EN}\n\n${lines.map((l) => `- ${l}`).join("\n")}\n\n${tail}`;
}

/** Whether a reply is a question back, so the next message completes the request before it. */
export function isQuestionBack(text: string): boolean {
  return text.startsWith(ASK_HEAD_ZH) || text.startsWith(ASK_HEAD_EN);
}

// A tool's refusals as a person should read them, by code and the words of the agent-facing
// message; `$1` is the name or value the message quotes. The first row that matches speaks.
const REFUSALS: [code: string, pattern: RegExp, zh: string][] = [
  [
    "forbidden",
    /not linked to an employee/,
    "你的账号还没有关联员工档案，所以还不知道哪些计件和工资是你的。请找老板在“设置 → 人员”里关联。",
  ],
  ["forbidden", /see only their own/, "员工只能查看自己的记录。可以问自己的，例如“我这个月做了多少件”。"],
  ["forbidden", /record pieces only for themselves/, "员工只能给自己登记计件：不用说名字，例如“我今天上领子80件，帮我登记”。"],
  ["forbidden", /Only a boss can create orders/, "只有老板可以新建订单。需要新订单的话请告诉老板。"],
  ["forbidden", /./, "你的角色不能做这件事：员工只能查看和登记自己的记录。"],
  ["invalid_input", /employee is required when a boss/, "是谁做的？请说出员工的名字，例如“给张三记上领子50件”。"],
  ["invalid_input", /work_date \S+ is in the future/, "日期不能晚于今天：做完的活才能登记。"],
  [
    "invalid_input",
    /work_date \S+ is more than (\d+) days/,
    "这一天太久以前了（超过 $1 天），不能登记：Weft 里没有补登更早计件的办法，请找老板在 Weft 之外处理。",
  ],
  ["invalid_input", /due_date \S+ is before today/, "交货日期不能早于今天，请换一个日期。"],
  ["unprocessable", /has left the workshop/, "这位员工已经离职，不能再登记计件。"],
  [
    "unprocessable",
    /is disabled/,
    "这道工序已停用，不能再登记：请换一道工序；要重新启用，请老板在对话里说“重新启用”加这道工序的名字。",
  ],
  ["unprocessable", /takes no more piece records/, "这张订单已完成或已取消，不能再登记计件。请换一张生产中的订单。"],
  ["unprocessable", /No open order/, "没有生产中或待生产的订单用到这道工序，所以没法登记。请先确认订单和工序。"],
  ["unknown_name", /'([^']+)'/, "没有找到“$1”。请检查名字，或者说全一点。"],
  ["ambiguous_name", /'([^']+)'/, "“$1”对得上好几个，请说得具体一些（例如写全名字或加上编号）。"],
  ["invalid_option", /./, "这个选项不在当前这一步里，请在上面的选项中选一项。"],
  ["session_unknown", /./, "找不到这次咨询，请重新描述问题。"],
  ["session_expired", /./, "这次咨询已经过期，请重新描述问题。"],
  ["session_complete", /./, "这次咨询已经结束；问题还在的话，请重新描述。"],
  ["knowledge_base_not_found", /./, "找不到所选的知识库，请重新选择。"],
  ["not_found", /./, "没有找到要找的记录。"],
  ["conflict", /./, "这件事已经处理过了，请刷新后再看。"],
  ["rate_limited", /./, "请求太频繁了，请稍等一分钟再试。"],
  ["upstream_failed", /./, "外部服务暂时不可用，请稍后再试。"],
  ["upstream_timeout", /./, "外部服务没有及时响应，请稍后再试。"],
  ["unavailable", /./, "服务暂时不可用，请稍后再试。"],
];

// "Close names: 张三 (id e-1); 张敏 (id e-2)." → the names, without the ids people do not need.
function closeNames(message: string): string[] {
  const list = /Close names: (.*?)\.?$/.exec(message)?.[1];
  return list ? list.split("; ").map((item) => item.replace(/\s*\(id [^)]*\)$/, "")) : [];
}

// Fields an "Invalid arguments" message names ("process: Invalid input: …").
function invalidFields(message: string): string[] {
  return [...message.matchAll(/(?:^|[:;,]\s)([a-z_]+): /g)].map((m) => m[1] as string).filter((f) => f !== "invalid_input");
}

/**
 * A refused tool call in the person's language: Chinese words for the refusals the tools give
 * (unknown or ambiguous names with the close ones, a role's limits, a date out of range), the
 * missing arguments asked for, and a plain sentence for anything else. English readers get the
 * tool's own message, which is written in English.
 */
export function refusalWords(message: string, chinese: boolean): string {
  const code = /^([a-z_]+): /.exec(message)?.[1] ?? "";
  const detail = message.slice(code.length + 2);
  if (code === "invalid_input" && detail.startsWith("Invalid arguments")) {
    const fields = invalidFields(detail.replace(/^Invalid arguments for [a-z_-]+: /, ""));
    if (fields.length > 0) return askFor([...new Set(fields)], chinese, () => undefined);
  }
  if (!chinese) return `That did not work: ${detail || message}`;
  const row = REFUSALS.find(([c, pattern]) => c === code && pattern.test(detail));
  if (!row) return "没能完成这件事。请换个说法再试一次，或者告诉老板。";
  const quoted = row[1].exec(detail)?.[1] ?? "";
  const close = closeNames(detail);
  const said = row[2].replace("$1", quoted);
  return close.length > 0 ? `${said}相近的有：${close.join("、")}。` : said;
}
