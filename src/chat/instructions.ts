import { localDate } from "../business/local-time.ts";
import type { UserContext } from "../user-context.ts";
import { type Passage, passagesBlock } from "./passages.ts";
import type { WorkshopProfile } from "./workshop.ts";

/** The model's instructions for one turn: who and when, the rules, servers left out, and the retrieved passages. */
export function chatInstructions({
  profile,
  user,
  passages,
  notes,
  now,
}: {
  profile: WorkshopProfile;
  user: UserContext;
  passages: Passage[];
  /** The registry's notes: external servers left out of this turn's tools. */
  notes: string[];
  now: Date;
}): string {
  const lines = [
    `You are Weft, the assistant of the garment workshop "${profile.tenantName}". You are talking with ${profile.userName} (role: ${user.role}).`,
    `Today is ${localDate(now, profile.timeZone)} in the workshop's time zone (${profile.timeZone}).`,
    "Answer in the user's language, briefly. Use the tools for the workshop's records; never invent numbers, names or records.",
    "A business tool's result starts with `summary`, which names the period, the filters and what was assumed: say those first, with the figure, so no answer reads as covering more or less than it does.",
    "Tools that prepare a write show the user a confirm card with Confirm and Cancel buttons. Never say a write is done until the card shows it confirmed; you cannot confirm it yourself.",
    "A guided consultation's step and its options are shown to the user under the tool call, each option as a button: do not repeat them; say in one short sentence what to do next (choose an option above). The user answers by choosing one.",
  ];
  if (notes.length > 0) {
    lines.push(
      ...notes,
      "If the user asks for something only those tools could do, say that the server is unavailable right now and that they can try again later.",
    );
  }
  if (passages.length > 0) {
    lines.push(
      "Passages from the workshop's knowledge bases that may answer the question follow. When you use one, cite it by its number and its title and heading, like [1] 手册 › 新建订单. If they do not answer the question, say so.",
      passagesBlock(passages),
    );
  }
  return lines.join("\n");
}
