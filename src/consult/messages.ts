/** The few sentences the engine says itself, in the language of the tree (or of the first question). */
export const MESSAGES = {
  zh: {
    choose: "您好！请选择您想咨询的主题：",
    chooserStep: "选择主题",
    back: "返回上一步",
    end: "结束咨询",
    alreadyAtStart: "已经在第一步了，无法再返回。",
    notUnderstood: (input: string) => `抱歉，没能理解“${input}”。请从下面的选项中选择，或换一种说法再描述一下。`,
    ended: "咨询已结束。",
    reached: "咨询已完成。",
    yourChoices: "您的选择：",
  },
  en: {
    choose: "Hello! Which topic would you like help with?",
    chooserStep: "Choose a topic",
    back: "Go back one step",
    end: "End the consultation",
    alreadyAtStart: "This is the first step; there is nothing to go back to.",
    notUnderstood: (input: string) =>
      `Sorry, I could not match "${input}" to any option. Choose one below, or describe it differently.`,
    ended: "The consultation has ended.",
    reached: "The consultation is complete.",
    yourChoices: "Your choices:",
  },
} as const;

export type Language = keyof typeof MESSAGES;

/** Chinese when the text has any CJK character: staff may mix in Latin words like "GPU". */
export function detectLanguage(text: string): Language {
  return /[\u3400-\u9fff]/.test(text) ? "zh" : "en";
}
