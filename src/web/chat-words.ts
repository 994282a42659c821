// The words only a conversation needs (an empty chat's suggestions, a card waiting for a form),
// apart from i18n.ts so the first load does not carry them. A tool's title and field words are on
// the tool (tool-words.ts); statuses are in words shared with the server (src/status-words.ts).
import type { Lang } from "./i18n.ts";

const zh = {
  needsInput: "待填写",
  good: "回答得好",
  bad: "回答得不对",
  badLine: "哪里不对？（可不填）",
  sendFeedback: "提交",
  thanks: "谢谢，已记下",
  retry: "重新回答",
  edit: "修改问题",
  editSend: "重新提问",
  cancel: "取消",
  earlier: (n: number) => `之前的回答（${n}）`,
  earlierQuestions: (n: number) => `修改前的问题（${n}）`,
  noAnswer: "（没有回答）",
  stopped: "已停止",
  interrupted: "回答中断了：以上是中断前的内容",
  replyRunning:
    "这个对话里还有一个回答正在生成（可能在另一个窗口）。你的问题没有发出，已放回输入框：等回答写完再发送，或者先停止它。",
  suggestionsTitle: "可以这样问：",
  // What each role may ask: staff see and record only their own work.
  suggestions: {
    boss: ["张三这个月做了多少件", "快到期的订单", "帮我录入，张三今天做了50件领子", "怎么新建订单"],
    admin: ["张三这个月做了多少件", "快到期的订单", "怎么新建订单"],
    staff: ["我这个月做了多少件", "我这个月的工资", "我今天上领子80件，帮我登记", "计件登记错了怎么改"],
  } as Record<string, string[]>,
};

const en: typeof zh = {
  needsInput: "waiting for you",
  good: "Good answer",
  bad: "Wrong answer",
  badLine: "What was wrong? (optional)",
  sendFeedback: "Send",
  thanks: "Thanks, noted",
  retry: "Answer again",
  edit: "Edit question",
  editSend: "Ask again",
  cancel: "Cancel",
  earlier: (n: number) => `Earlier answers (${n})`,
  earlierQuestions: (n: number) => `Questions before the edit (${n})`,
  noAnswer: "(no answer)",
  stopped: "Stopped",
  interrupted: "The answer was cut off: this is what came before",
  replyRunning:
    "Another answer is still being written in this chat (perhaps in another tab). Your question was not sent and is back in the box: send it once that answer is done, or stop it first.",
  suggestionsTitle: "You could ask:",
  suggestions: {
    boss: ["how many pieces did Zhang San do this month", "orders due soon", "record 50 pieces of collar for Zhang San today"],
    admin: ["how many pieces did Zhang San do this month", "orders due soon"],
    staff: ["how many pieces did I do this month", "my payroll for this month", "record 80 pieces of collar for me today"],
  },
};

/** The conversation's words in a language. */
export function chatWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}
