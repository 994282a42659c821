import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { agentPreviewText, cardLines, cardText } from "../../src/preview-text.ts";
import type { ConfirmCardData } from "../../src/shapes.ts";
import { ConfirmCard } from "../../src/web/confirm-card.tsx";
import { I18nContext, messagesFor } from "../../src/web/i18n.ts";

const action: ConfirmCardData = {
  action_id: "a".repeat(64),
  kind: "piece_record",
  status: "pending",
  summary: "计件登记：张三 上领子 50 件，金额 40.00 元",
  preview: [
    { label: "员工", value: "张三 (工号 001)" },
    { label: "数量", value: "50 件" },
    { label: "金额", value: "40.00 元" },
  ],
  ambiguities: [],
  created_at: "2026-11-26T09:50:00.000Z",
  expires_at: "2026-11-26T10:00:00.000Z",
  confirm_url: "http://weft.test/actions/aaaa",
};

/** The card as a person's screen shows it, its words in order, in `lang`. */
function cardWords(lang: "zh" | "en"): string {
  const html = renderToStaticMarkup(
    createElement(
      I18nContext.Provider,
      { value: { lang, t: messagesFor(lang), setLang: () => {} } },
      createElement(ConfirmCard, { data: action, onDecide: async () => null }),
    ),
  );
  return html.replace(/<[^>]+>/g, "\n");
}

describe("the preview text an approval keeps", () => {
  it("is the card's own words, in the card's order: the summary, then each field's label and value", () => {
    for (const lang of ["zh", "en"] as const) {
      const shown = cardWords(lang);
      let from = 0;
      for (const line of cardLines(action, lang)) {
        for (const word of line.split(lang === "zh" ? "：" : ": ")) {
          const at = shown.indexOf(word, from);
          expect(at, `${lang}: ${word}`).toBeGreaterThanOrEqual(0);
          from = at + word.length;
        }
      }
    }
  });

  it("joins the lines with the separator of the page's language", () => {
    expect(cardText(action, "zh").split("\n")).toEqual([
      action.summary,
      "员工：张三 (工号 001)",
      "数量：50 件",
      "金额：40.00 元",
    ]);
    expect(cardText(action, "en").split("\n")[1]).toBe("员工: 张三 (工号 001)");
  });

  it("gives an agent the same fields as a list", () => {
    expect(agentPreviewText(action).split("\n")).toEqual([
      `Pending confirmation (nothing has been written yet): ${action.summary}`,
      "- 员工: 张三 (工号 001)",
      "- 数量: 50 件",
      "- 金额: 40.00 元",
    ]);
  });
});
