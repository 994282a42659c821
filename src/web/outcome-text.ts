// How a confirm card words an outcome, one set per UI language: what a refusal means, in place of
// the server's message written for agents. The labels a confirmed write's result is shown with
// are the prepare tools' own words (tool-words.ts).
import type { OutcomeText } from "./action-outcome.ts";

export const OUTCOME_TEXT_ZH: Omit<OutcomeText, "labels"> = {
  separator: "，",
  colon: "：",
  refusals: new Map([
    ["action_stale", "情况有变（例如单价、订单或员工已被修改），这次没有写入。请重新准备。"],
    ["action_expired", "已过期，没有写入。请重新准备。"],
    ["action_not_confirmable", "还有没确定的内容，这一张不能确认。"],
    ["action_unknown", "找不到这项操作，可能已经处理过了。"],
    ["forbidden", "你的角色不能确认这项操作。"],
    ["unavailable", "保存失败，什么都没写入。请再试一次。"],
    ["rate_limited", "操作太频繁，请稍后再试。"],
    ["action_in_progress", "这项操作正在写入，请过一会儿刷新页面看结果。"],
    ["upstream_failed", "外部服务暂时不可用，请稍后再试。"],
    ["upstream_timeout", "外部服务没有及时响应，请稍后再试。"],
  ]),
  settled: new Map([
    ["confirmed", "这项操作已经确认过了。"],
    ["cancelled", "这项操作已经取消了。"],
    ["expired", "这项操作已过期，没有写入。"],
    ["failed", "这项操作已经失败，没有写入。"],
  ]),
};

export const OUTCOME_TEXT_EN: Omit<OutcomeText, "labels"> = {
  separator: ", ",
  colon: ": ",
  // The server's messages are English already, and say more than a gist.
  refusals: new Map(),
  settled: new Map(),
};
