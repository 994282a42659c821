// The words a person (or an agent) is shown when asked to say yes to a prepared write, as text:
// what the audit stores beside each approval, with its SHA-256, so a boss can check the words a
// write was confirmed on. The confirm card and page (src/web/confirm-card.tsx) show exactly these
// fields in this order; test/web/preview-text.test.ts holds the two together.

type Lang = "zh" | "en";

/** What a preview is made of (a pending action's summary and fields). */
interface Previewed {
  summary: string;
  preview: readonly { label: string; value: string }[];
}

/**
 * The lines the chat's confirm card and the confirm page show of a write, in the order they show
 * them: the summary, then each field as `label：value` (`label: value` in English; the card sets
 * each label beside its value). The labels and values are the prepare step's own words; only the
 * separator follows the page's language.
 *
 * @example cardLines({ summary: "计件登记：张三 上领子 50 件", preview: [{ label: "数量", value: "50 件" }] }, "zh") // ["计件登记：张三 上领子 50 件", "数量：50 件"]
 */
export function cardLines(action: Previewed, lang: Lang): string[] {
  const separator = lang === "zh" ? "：" : ": ";
  return [action.summary, ...action.preview.map((field) => `${field.label}${separator}${field.value}`)];
}

/** The text of `cardLines`, one line each: what a card or confirm page approval records as shown. */
export function cardText(action: Previewed, lang: Lang): string {
  return cardLines(action, lang).join("\n");
}

/**
 * The preview as an agent is given it (the MCP result's text, the line an agent's confirm records):
 * the summary, then each field as `- label: value`.
 */
export function agentPreviewText(action: Previewed): string {
  return [
    `Pending confirmation (nothing has been written yet): ${action.summary}`,
    ...action.preview.map((field) => `- ${field.label}: ${field.value}`),
  ].join("\n");
}
