import { roleAllows } from "../../permissions.ts";
import { CHANGE_SUBJECTS, type ChangeSubject, type ChangeSubjectName } from "../../tools/changes.ts";
import { WEFT_TOOLS } from "../../tools/registry.ts";
import type { WeftTool } from "../../tools/tool.ts";
import type { Role } from "./greetings.ts";

// A request to remove something rather than change it.
const DELETE = /删除|删掉|删了|去掉|\b(?:delete|remove)\b/i;

const ROLE_WORDS: Record<Role, [zh: string, en: string]> = {
  admin: ["管理员", "an admin"],
  boss: ["老板", "the boss"],
  staff: ["员工", "staff"],
};

function subject(name: string): ChangeSubject | undefined {
  return Object.hasOwn(CHANGE_SUBJECTS, name) ? (CHANGE_SUBJECTS as Record<string, ChangeSubject>)[name] : undefined;
}

/** Weft's tools that change any of `subjects`, as their words declare. */
function changers(subjects: readonly string[]): WeftTool[] {
  return WEFT_TOOLS.filter((tool) => tool.words.changes?.some((changed) => subjects.includes(changed)));
}

function offerOf(tool: WeftTool, chinese: boolean, said?: ChangeSubject): string {
  if (said?.say) return `例如说${said.say[chinese ? "zh" : "en"]}`.replace(/^例如说/, chinese ? "例如说" : "e.g. ");
  const offer = tool.words.offer;
  return offer ? offer[chinese ? "zh" : "en"] : tool.words.title[chinese ? "zh" : "en"];
}

/**
 * The one sentence that answers a request to change `name`, from what the registry offers: how to
 * ask for it when an offered tool changes it (its words were not read as a request), who may when
 * the caller's role may not, what to change instead when it is worked out from other records (pay
 * from piece records, allowances and deductions), and otherwise that Weft cannot and who can,
 * where. It shows no records: a lookup would read as the change done, or as the answer.
 */
export function changeReply({
  name,
  text,
  role,
  offered,
  chinese,
}: {
  /** What the request names; `null` when it names nothing the workshop keeps. */
  name: ChangeSubjectName | null;
  text: string;
  role: Role;
  /** Whether the caller is offered a tool (by its name). */
  offered: (toolName: string) => boolean;
  chinese: boolean;
}): string {
  const remove = DELETE.test(text);
  if (name === null) {
    if (chinese)
      return `对话里不能${remove ? "删除" : "修改"}已经保存的东西：Weft 只能查询，以及准备新的计件和订单（都要你点确认才写入）。要改已有的记录，请找老板。`;
    return `The chat cannot ${remove ? "delete" : "change"} what is already saved: Weft looks things up and prepares new piece records and orders (written only when you confirm). To change a saved record, ask the boss.`;
  }
  const said = subject(name) as ChangeSubject;
  const what = said.name[chinese ? "zh" : "en"];
  const verb = chinese ? (remove ? "删除" : "修改") : remove ? "delete" : "change";
  const [boss, bossEn] = ROLE_WORDS[said.decidedBy];
  const direct = changers([name]);
  const mine = direct.filter((tool) => offered(tool.name));
  if (mine[0]) {
    const how = offerOf(mine[0], chinese, said);
    if (chinese) return remove ? `Weft 不能删除${what}，但可以在对话里修改，${how}。` : `可以在对话里修改${what}，${how}。`;
    return remove
      ? `Weft cannot delete ${what}, but you can change them in the chat, ${how}.`
      : `You can change ${what} in the chat, ${how}.`;
  }
  const someone = direct[0];
  if (someone) {
    const [who, whoEn] = ROLE_WORDS[(someone.minRole ?? said.decidedBy) as Role];
    return chinese
      ? `你的角色不能${verb}${what}，请${who}在对话里改。`
      : `Your role cannot ${verb} ${what}; ${whoEn} can, in the chat.`;
  }
  const why = said.why ? said.why[chinese ? "zh" : "en"] : null;
  // Only the parts a tool offered to the caller changes are named: pay is changed by its allowances
  // and deductions, not by saved piece records, which nothing changes.
  const partsMine = (said.madeOf ?? []).filter((part) => changers([part]).some((tool) => offered(tool.name)));
  const first = partsMine[0] ? changers([partsMine[0]]).find((tool) => offered(tool.name)) : undefined;
  if (first && partsMine[0]) {
    const part = subject(partsMine[0]) as ChangeSubject;
    const partNames = partsMine.map((name) => subject(name)?.name[chinese ? "zh" : "en"]).join(chinese ? "或" : " or ");
    return chinese
      ? `Weft 不能直接${verb}${what}（${why}），可以在对话里改${partNames}，${offerOf(first, true, part)}。`
      : `Weft cannot ${verb} ${what} as such (${why}); change ${partNames} in the chat instead, ${offerOf(first, false, part)}.`;
  }
  const decides = roleAllows(role, said.decidedBy);
  if (said.place) {
    const place = said.place[chinese ? "zh" : "en"];
    return chinese
      ? `对话里不能${verb}${what}：${decides ? "你可以" : `请${boss}`}在${place}里改。`
      : `The chat cannot ${verb} ${what}: ${decides ? "you can" : `${bossEn} can`} in ${place}.`;
  }
  const because = why ? (chinese ? `（${why}）` : ` (${why})`) : "";
  if (chinese) {
    const who = decides ? `由${boss}在 Weft 之外处理` : `请找${boss}`;
    return `Weft 不能${verb}${what}${because}，对话里也没有这样的功能；要${verb}，${who}。`;
  }
  const who = decides ? `${bossEn} does it outside Weft` : `ask ${bossEn}`;
  return `Weft cannot ${verb} ${what}${because}, and the chat has no way to; to ${verb} it, ${who}.`;
}
