import type { ChangeSubjectName } from "../../tools/changes.ts";
import type { FuturePeriod } from "./dates.ts";
import { periodWord } from "./due-dates.ts";

/**
 * A request the offline model answers in its own words rather than with a lookup: a change to
 * something the workshop keeps (what, when the words name it; whether a tool changes it is the
 * registry's to say, change-requests.ts), or records of a period that has not come yet.
 */
export type Decline =
  | { decline: "change"; what: ChangeSubjectName | null }
  | { decline: "future"; what: "pieces" | "payroll" | "record"; period: FuturePeriod };

function futureReply(what: "pieces" | "payroll" | "record", period: FuturePeriod, chinese: boolean): string {
  const when = periodWord(period, chinese);
  if (chinese) {
    if (what === "record") return `计件只能登记已经做完的：${when}的活做完后再登记（日期不能晚于今天）。`;
    if (what === "payroll") {
      return `${when}还没到，没有工资可查：工资按每个月登记的计件现算。可以问这个月（算到今天）或以前的月份，例如“这个月的工资”。`;
    }
    return `${when}还没到，还没有计件记录。可以问今天或以前的，例如“今天做了多少件”。`;
  }
  if (what === "record")
    return `Pieces are recorded once they are done: record ${when}'s work then (a work date cannot be after today).`;
  if (what === "payroll") {
    return `${when[0]?.toUpperCase()}${when.slice(1)} has not come yet, so there is no pay to show: pay is worked out from each month's piece records. Ask about this month (so far) or an earlier one, e.g. "payroll for this month".`;
  }
  return `${when[0]?.toUpperCase()}${when.slice(1)} has not come yet, so there are no piece records. Ask about today or earlier, e.g. "how many pieces today".`;
}

/** What the offline model says to records asked of a period still to come, in the user's language. */
export function declineReply(decline: Decline & { decline: "future" }, chinese: boolean): string {
  return futureReply(decline.what, decline.period, chinese);
}
