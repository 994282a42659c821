import { AppError, GENERIC_MESSAGE } from "../errors.ts";
import { log } from "../log.ts";
import type { Tool, ToolContext, ToolOutput } from "./tool.ts";

export type ToolOutcome = ({ ok: true } & ToolOutput<Record<string, unknown>>) | { ok: false; code: string; message: string };

/**
 * Runs a tool and turns failures into values both faces can show: domain errors keep their safe
 * message, anything else is logged with the request id and reported generically.
 */
export async function runTool(tool: Tool, ctx: ToolContext, input: unknown): Promise<ToolOutcome> {
  try {
    const output = await tool.run(ctx, input as Record<string, unknown>);
    return { ok: true, ...output };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
    log("error", "tool_failed", { tool: tool.name, request_id: ctx.requestId, error });
    return { ok: false, code: "internal", message: `${GENERIC_MESSAGE} (request id ${ctx.requestId})` };
  }
}
