import {
  type GetPromptResult,
  type McpServer,
  type Prompt,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { loadCatalog } from "../consult/tree-store.ts";
import type { ConfirmBy } from "../shapes.ts";
import { promptConfirmStep } from "../tools/confirm-by.ts";
import type { Toolset } from "../tools/registry.ts";
import type { ToolContext } from "../tools/tool.ts";
import type { IconName } from "../tools/tool-icons.ts";
import { iconsFor } from "./icons.ts";

/** Prompt names: a consultation is `consult.{tree id}`, a task `task.{name}`, so the two never collide. */
const CONSULT_PREFIX = "consult.";
const MAX_ARGUMENT = 2000;

interface TaskPrompt {
  prompt: Prompt;
  icon: IconName;
  /** The tools the task combines: offered only to a caller who has them all. */
  tools: string[];
  /** The prompt's message; `confirmBy` is what the caller's credential allows in saying yes to a write. */
  message(args: Record<string, string>, confirmBy: ConfirmBy): string;
}

/** Two tasks that show how the tools combine; their words are the workshop's (Chinese). */
const TASKS: TaskPrompt[] = [
  {
    prompt: {
      name: "task.record-pieces",
      title: "登记计件",
      description:
        "Record pieces an employee finished: prepare the record, show the preview, and write it only after the user says yes (where, depends on what this connection allows).",
      arguments: [
        { name: "employee", description: "Who did the work: name, 工号 or id (员工).", required: true },
        { name: "process", description: "The process done, as the workshop names it (工序), e.g. 上领子.", required: true },
        { name: "quantity", description: "How many pieces, a whole number (件数).", required: true },
      ],
    },
    icon: "write",
    tools: ["prepare_piece_record", "confirm_action", "cancel_action"],
    message: ({ employee, process, quantity }, confirmBy) =>
      `请给${employee}登记计件：工序「${process}」，${quantity}件。\n` +
      "先调用 prepare_piece_record 准备这条记录，把预览（员工、工序、件数、单价、金额）给我看；" +
      `有不明确的地方先问我。${promptConfirmStep(confirmBy)}`,
  },
  {
    prompt: {
      name: "task.monthly-payroll",
      title: "本月工资汇总",
      description: "Sum up this month's pay per employee and check it against the pieces recorded.",
      arguments: [
        { name: "employee", description: "Only this employee (name, 工号 or id); leave empty for everyone you may see." },
      ],
    },
    icon: "records",
    tools: ["query_payroll", "query_piece_records"],
    message: ({ employee }) =>
      `请汇总本月工资${employee ? `（只看${employee}）` : ""}。\n` +
      `先调用 query_payroll${employee ? `（employee: ${employee}）` : ""} 取本月每个人的计件工资、补贴、扣款和实发工资，` +
      `再调用 query_piece_records（period: this_month, group_by: employee${employee ? `, employee: ${employee}` : ""}）核对件数。` +
      "先说清楚统计的是哪个月、这个月是否还没结束，再用表格列出每个人的件数、计件工资和实发工资，最后给出合计。",
  },
];

/**
 * The consultations the caller's workshop sees (shipped trees and its own) as prompts that start
 * them, and the task prompts whose tools the caller has. Read per request, like every list.
 */
export function servePrompts(mcp: McpServer, ctx: ToolContext, toolset: Toolset): void {
  const server = mcp.server;
  const has = new Set(toolset.tools.map((tool) => tool.name));
  const tasks = TASKS.filter((task) => task.tools.every((name) => has.has(name)));
  const consults = has.has("initiate_session");
  server.registerCapabilities({ prompts: { listChanged: false } });

  async function trees() {
    return consults ? loadCatalog(ctx.services.consult) : null;
  }

  server.setRequestHandler("prompts/list", async () => {
    const catalog = await trees();
    const consultations: Prompt[] = (catalog?.order ?? []).map((id) => {
      const tree = catalog?.trees.get(id);
      return {
        name: `${CONSULT_PREFIX}${id}`,
        title: tree?.title,
        description: tree?.description || `Start the guided consultation '${tree?.title ?? id}'.`,
        icons: iconsFor(ctx.services.actions.origin, "consult"),
        arguments: [
          {
            name: "question",
            description: "What the user wants to ask, in their own words (optional: the consultation asks).",
          },
        ],
      };
    });
    return {
      prompts: [
        ...consultations,
        ...tasks.map((task) => ({ ...task.prompt, icons: iconsFor(ctx.services.actions.origin, task.icon) })),
      ],
    };
  });

  server.setRequestHandler("prompts/get", async (request): Promise<GetPromptResult> => {
    const { name } = request.params;
    const args = checkedArguments(request.params.arguments);
    const task = tasks.find((t) => t.prompt.name === name);
    if (task) {
      const missing = (task.prompt.arguments ?? []).filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
      if (missing.length > 0) throw invalid(`Prompt '${name}' needs ${missing.join(", ")}.`);
      return {
        description: task.prompt.description,
        messages: [{ role: "user", content: { type: "text", text: task.message(args, ctx.confirming.by) } }],
      };
    }
    const tree = name.startsWith(CONSULT_PREFIX) ? (await trees())?.trees.get(name.slice(CONSULT_PREFIX.length)) : undefined;
    if (!tree) throw invalid(`Unknown prompt '${name.slice(0, 64)}'.`);
    const question = args.question?.trim();
    const text =
      tree.language === "en"
        ? `I would like the guided consultation "${tree.title}".${question ? ` My question: ${question}` : ""}\n` +
          `Call initiate_session with user_query "${tree.title}${question ? `: ${question}` : ""}", show me each step's response and its options as a numbered list, and go on with navigate_session from my choices.`
        : `我想做「${tree.title}」咨询。${question ? `我的问题：${question}` : ""}\n` +
          `请调用 initiate_session，user_query 用「${tree.title}」${question ? `加上我的问题` : ""}；把每一步的回答和选项编号列给我，再按我的选择调用 navigate_session 继续。`;
    return { description: tree.description || tree.title, messages: [{ role: "user", content: { type: "text", text } }] };
  });
}

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** A prompt's arguments, each a string of bounded length (the spec's shape; the SDK has checked the types). */
function checkedArguments(args: Record<string, string> | undefined): Record<string, string> {
  const checked: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(args ?? {})) {
    if (value.length > MAX_ARGUMENT) throw invalid(`Argument '${name.slice(0, 64)}' is longer than ${MAX_ARGUMENT} characters.`);
    checked[name] = value;
  }
  return checked;
}
