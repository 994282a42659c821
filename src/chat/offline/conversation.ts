import { DATE_WORDS } from "./dates.ts";
import { findOrderNo, findPersonName, findProcess } from "./entities.ts";
import { isQuestionBack } from "./questions.ts";

/** One earlier turn as the model reads it: what the user wrote, and the model's words after it. */
export interface Turn {
  user: string;
  reply: string;
}

/** A message that leans on the one before ("那李娟呢", "上个月呢", "她的工资", "what about Li Juan"). */
export const FOLLOW_UP = /^(?:那|那么|还有|再看看?|再查查?|换成)|呢[？?。!！\s]*$|^(?:and|what about|how about)\b/i;
// Not the 他 of 其他 nor of 他们.
const PRONOUN = /(?<!其)[她他](?!们)|\b(?:she|he|her|him|his)\b/i;

// A follow-up that compares ("比这个月多多少", "跟上周比呢").
const COMPARES = /^(?:那|那么)?(?:比起?|跟|和|与)/;

function firstDate(text: string): string | null {
  return new RegExp(DATE_WORDS.source, "i").exec(text)?.[0] ?? null;
}

/**
 * The earlier request with what a follow-up says swapped in: its person, date, process or order
 * ("那李娟呢" after "张三这个月做了多少件" is "李娟这个月做了多少件"), or a pronoun named ("她上个月工资呢"
 * after a question about 李娟); a comparison is added to it ("比这个月多多少"). `null` when the
 * message stands on its own.
 */
function followUp(before: string, text: string, standsAlone: (text: string) => boolean): string | null {
  // "比这个月多多少" sets the earlier request's period against another: both are kept.
  if (COMPARES.test(text.trim()) && firstDate(text)) return `${before}，${text.trim()}`;
  const pronoun = PRONOUN.test(text);
  if (!FOLLOW_UP.test(text.trim()) && !pronoun) return null;
  const earlierName = findPersonName(before);
  // "她上个月的工资呢" says what it asks; only who "she" is comes from before.
  if (standsAlone(text)) return pronoun && earlierName ? text.replace(PRONOUN, earlierName) : null;
  let merged = before;
  const name = findPersonName(text);
  if (name) merged = earlierName ? merged.replace(earlierName, name) : `${name}${merged}`;
  const date = firstDate(text);
  if (date) merged = `${date}${merged.replace(DATE_WORDS, "")}`;
  const process = findProcess(text);
  const earlierProcess = findProcess(before);
  if (process) merged = earlierProcess ? merged.replace(earlierProcess, process) : `${merged}${process}`;
  const order = findOrderNo(text);
  const earlierOrder = findOrderNo(before);
  if (order) merged = earlierOrder ? merged.replace(earlierOrder, order) : `${merged}，订单${order}`;
  return merged === before ? null : merged;
}

/**
 * What the user is asking now, read with the turns before it: an answer to a question back
 * completes the request it asked about ("领子" after "是哪道工序？"; a bare 50 is a count), and a
 * follow-up carries the person, period, process or order over from the request before.
 * `standsAlone` says whether a message picks a tool by itself.
 */
export function currentRequest(turns: Turn[], question: string, standsAlone: (text: string) => boolean): string {
  let request = "";
  for (const [i, turn] of [...turns, { user: question, reply: "" }].entries()) {
    const earlier = i > 0 ? turns[i - 1] : undefined;
    if (earlier && isQuestionBack(earlier.reply)) {
      const count = /^\s*(\d+|[零〇一二两三四五六七八九十百千万]+)\s*$/.test(turn.user) ? `${turn.user.trim()}件` : turn.user;
      request = `${request}，${count}`;
    } else {
      request = (request && followUp(request, turn.user, standsAlone)) || turn.user;
    }
  }
  return request;
}
