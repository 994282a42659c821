// What each screen of the browser UI may cost a phone on first load: the gzip bytes of the scripts
// and stylesheets it fetches. `npm test` checks the built module graph against it
// (scripts/web-size.ts); test/e2e/web-bundle.test.ts checks what Chromium actually fetches.

/** The UI's modules each screen needs, by their path under src/web: the entry and its lazy chunks. */
export const SCREENS = {
  /** What the first screen (sign-in, or "…" while it asks who is signed in) waits for. */
  entry: ["index.html"],
  /**
   * A new conversation. The sign-in screen fetches this too, beside asking who is signed in: most
   * visits are by someone already signed in, and anyone else needs it once they are.
   */
  chat: ["index.html", "chat-shell.tsx"],
  /** A conversation with an answer in it: the Markdown renderer too. */
  conversation: ["index.html", "chat-shell.tsx", "markdown.tsx", "answer-actions.tsx"],
  /** The settings page as staff open it from the chat: their connected apps and API keys. */
  settings: ["index.html", "chat-shell.tsx", "settings.tsx"],
  /** The settings page as a boss or an admin opens it: the workshop's people, recent writes and MCP servers too. */
  workshopSettings: ["index.html", "chat-shell.tsx", "settings.tsx", "workshop-settings.tsx"],
  /** The sign-up page (`/sign-up`): a new workshop and its boss. */
  signUp: ["index.html", "sign-up.tsx"],
  /** The page a one-time set-password link opens, often on a phone from a WeChat message. */
  setPassword: ["index.html", "set-password.tsx"],
} as const;

export type Screen = keyof typeof SCREENS;

/**
 * A little above the figures measured when they were set; docs/web-ui.md, "What a phone downloads".
 * Raised for #26 (entry 81.9 → 82.1 kB, chat 135.8 → 138.4, settings 139.3 → 141.9): inline SVG icons
 * in place of emoji, an empty chat's suggestions by role, tool cards under readable titles, tables
 * that scroll on a phone; the conversation's own words are in chat-words.ts, out of the entry.
 * Settings split for #24/#25 (boss 141.9 → 146.5 kB, staff 143.0): everyone has settings now (API
 * keys, connected apps), a boss or admin also the workshop's recent writes beside the MCP servers,
 * in a chunk of its own; the settings' stylesheet and new words left the entry (82.1 → 81.9).
 * Raised for #40 (entry 82.3 → 82.9 kB, chat 138.6 → 139.2, settings 143.8 → 146.1, workshop settings
 * 147.1 → 152.9): the sign-in screen links to sign-up where the deployment takes sign-ups, and the
 * app routes /sign-up and /set-password to chunks of their own; everyone's settings have a password
 * section (its words and the refusals in the person's language: password-words.ts); a boss's have
 * the people section (people-settings.tsx, its words and stylesheet).
 * Raised for #39 (entry +0.2 kB, chat +0.3, staff settings +1.2, workshop settings +1.3): a write a
 * confirm is writing (正在写入, and a click that meets it said in the person's language), the confirm
 * page opened by a URL elicitation; in settings, who says yes to a key's or an app's writes, a
 * choice of three with a line on what each trusts in both languages, and the preview a write's
 * person saw, read on request in the recent writes.
 * Raised for #37 (boss 148.0 → 151.5 kB, measured 150.8): the knowledge files section (documents with
 * their status and progress, uploads by drop or picker, failure reasons in both languages), in the
 * boss's chunk, so staff download none of it. Merged with #39 and #40 (measured: staff settings
 * 147.6 kB, boss settings 157.9 kB): the sums of the three, and the file-kind words the settings
 * share (staff settings +0.3 kB).
 * Raised for #38 (measured: entry 83.7 kB, chat 139.6, conversation 231.5, staff settings 147.7, boss
 * settings 158.0, sign-up 87.4, set-password 87.5): the confirm page says where a write was
 * prepared, in both languages (the UI's words are in the entry); a card's open question as buttons;
 * a touch keyboard's own hint; the settings' 高级 heading; a table as a card per row on a phone and
 * its cells' column titles (table-labels.ts, with the Markdown renderer).
 * Raised for #42 (measured before: entry 83.2 kB, chat 139.0, conversation 230.8, staff settings 147.0,
 * boss settings 157.3, sign-up and set-password 86.9): the chat resumes a reply after a reload or a
 * dropped connection and stops it on the server (the API client's new routes, in the entry); a
 * question's edit and an answer's "answer again" (chat +1.5 kB); under each answer 👍/👎 with a line,
 * its earlier versions and how it ended, in a chunk fetched with the first answer (conversation
 * +3.0 kB in all, counted here; Chromium fetched 234.3 kB); a boss's settings list the recent 👎 with "add as FAQ" (+2.7 kB, boss
 * chunk only).
 * Merged #38 and #42: the sum of both raises on each screen.
 * Raised for #43 (boss settings 161.6 → 165.6 kB, measured 165.1): Settings → 车间资料 (employees,
 * processes with prices from a day, open orders moved along their steps, each change's old → new
 * check before 确认, refusals in both languages: business-*.tsx, business-words.ts, business.css),
 * in the boss's chunk only; every other screen unchanged.
 * Raised again for #43 (165.6 → 167.2 kB, measured 166.8): the workshop's name and time zone, styles
 * added and edited, processes renamed, stopped and started, each process's price history
 * (business-workshop.tsx, business-styles.tsx, business-price-history.tsx); boss's chunk only.
 * Raised again for #43 (167.2 → 170.8 kB, measured 166.8 → 170.3): a month's 补贴 and 扣款 entered
 * and taken back, and imports of employee and price lists from Excel or CSV with their report
 * (business-adjustments.tsx, business-import.tsx, their words in both languages); boss's chunk only
 * (the API client's two routes add 0.1 kB to the entry, within its budget).
 * Raised for #42's faults (chat 141.8 → 142.4 kB, staff settings 149.9 → 150.5, boss settings
 * 170.8 → 171.1; measured with it 142.1, 150.2, 170.9): a question
 * refused because another tab's reply runs is said in both languages, put back in the box, and the
 * reply followed; a tab shown again reads the chat and follows a reply running in it. Conversation
 * 235.8 → 236.3 kB (what Chromium fetched, 236.0, in test/e2e/web-bundle.test.ts).
 */
export const BUDGET_BYTES: Record<Screen, number> = {
  entry: 84_400,
  chat: 142_400,
  conversation: 236_300,
  settings: 150_500,
  workshopSettings: 171_100,
  signUp: 88_100,
  setPassword: 88_100,
};
