/** Who the model is talking with, as its instructions say ("(role: staff)"). */
export type Role = "admin" | "boss" | "staff";

/** The caller's role from the model's instructions; staff when they do not say, as staff may do least. */
export function roleIn(instructions: string): Role {
  const said = /\(role: (admin|boss|staff)\)/.exec(instructions)?.[1];
  return said === "admin" || said === "boss" ? said : "staff";
}

// What each role may ask and be answered: staff see and record only their own work.
const SUGGESTIONS: Record<Role, [zh: string[], en: string[]]> = {
  boss: [
    ["张三这个月做了多少件", "快到期的订单", "帮我录入，张三今天做了50件领子"],
    ["how many pieces did Zhang San do this month", "orders due soon", "record 50 pieces of collar for Zhang San today"],
  ],
  admin: [
    ["张三这个月做了多少件", "快到期的订单", "帮我录入，张三今天做了50件领子"],
    ["how many pieces did Zhang San do this month", "orders due soon", "record 50 pieces of collar for Zhang San today"],
  ],
  staff: [
    ["我这个月做了多少件", "我这个月的工资", "我今天上领子80件，帮我登记"],
    ["how many pieces did I do this month", "my payroll for this month", "record 80 pieces of collar for me today"],
  ],
};

/** Two or three things the role may ask, for a greeting, an empty chat or a request not understood. */
export function suggestionsFor(role: Role, chinese: boolean): string[] {
  const [zh, en] = SUGGESTIONS[role];
  return chinese ? zh : en;
}

const GREETING =
  /^(?:你好|您好|嗨|哈喽|在吗|在不在|早上好|早|下午好|晚上好|hi|hello|hey|good (?:morning|afternoon|evening))[呀啊！!。.～~\s]*$/i;
const THANKS = /^(?:谢谢|多谢|谢了|感谢|辛苦了|好的谢谢|thanks|thank you|thx)[你您啦呀啊！!。.～~\s]*$/i;

/** One short line and a few suggestions for a greeting or thanks; `null` for anything else. */
export function greetingReply(text: string, role: Role, chinese: boolean): string | null {
  const thanks = THANKS.test(text.trim());
  if (!thanks && !GREETING.test(text.trim())) return null;
  const list = suggestionsFor(role, chinese)
    .map((s) => (chinese ? `- “${s}”` : `- "${s}"`))
    .join("\n");
  if (chinese) return `${thanks ? "不客气！" : "你好！"}还可以这样问我：\n\n${list}`;
  return `${thanks ? "You're welcome!" : "Hello!"} You could ask me:\n\n${list}`;
}
