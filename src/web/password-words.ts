// The words of a person's password (the settings' password section, and why a password or a
// username was refused, wherever one is chosen), apart from i18n.ts so the first load does not
// carry them. It imports nothing of the browser's, so the Workers tests can read it.
import type { PasswordRefusal } from "../shapes.ts";

type Lang = "zh" | "en";

const zh = {
  passwordTitle: "密码",
  passwordLead: "改了密码，你在其他手机和电脑上的登录都会退出；这里的登录、API 密钥和已连接的应用不受影响。",
  currentPassword: "当前密码",
  newPassword: "新密码（至少 8 个字符，不能是常见密码）",
  repeatPassword: "再输一次新密码",
  changePassword: "修改密码",
  changing: "正在修改…",
  passwordsDiffer: "两次输入的新密码不一样。",
  passwordChanged: (ended: number) => (ended > 0 ? `密码已修改，其他 ${ended} 处登录已退出。` : "密码已修改。"),
  refused: {
    too_short: "密码至少要 8 个字符。",
    too_long: "密码太长了，最多 256 个字符。",
    common: "这个密码太常见，最容易被猜到，请换一个。",
    username: "密码不能和用户名一样。",
    unchanged: "新密码和当前密码一样，请换一个。",
    wrong_current: "当前密码不对。",
  } as Record<PasswordRefusal, string>,
  usernameTaken: "这个用户名已经有人用了，请换一个。",
  tooMany: (minutes: number) => `尝试次数过多，请 ${minutes} 分钟后再试。`,
};

const en: typeof zh = {
  passwordTitle: "Password",
  passwordLead:
    "Changing your password signs you out on your other phones and computers; this sign-in, your API keys and connected apps keep working.",
  currentPassword: "Current password",
  newPassword: "New password (at least 8 characters, not a common one)",
  repeatPassword: "New password again",
  changePassword: "Change password",
  changing: "Changing…",
  passwordsDiffer: "The two new passwords differ.",
  passwordChanged: (ended: number) =>
    ended > 0 ? `Password changed; ${ended} other sign-in${ended === 1 ? "" : "s"} ended.` : "Password changed.",
  refused: {
    too_short: "A password has at least 8 characters.",
    too_long: "That password is too long: 256 characters at most.",
    common: "That is one of the most common passwords, which are guessed first: choose another.",
    username: "The password may not be the username.",
    unchanged: "The new password is the current one: choose another.",
    wrong_current: "The current password is wrong.",
  },
  usernameTaken: "Someone has this username already: choose another.",
  tooMany: (minutes: number) => `Too many attempts. Try again in ${minutes} min.`,
};

/** The password words in a language. */
export function passwordWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}
