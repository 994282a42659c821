// The words of the sign-up page and of the set-password page a one-time link opens, apart from
// i18n.ts so the first load does not carry them (each page is a chunk of its own). Like
// settings-words.ts it imports nothing of the browser's, so the Workers tests can read it.

type Lang = "zh" | "en";

const zh = {
  signUpTitle: "创建工作坊",
  signUpLead: "填好下面几项，你就是这个工作坊的老板，可以给员工开账号。",
  workshopName: "工作坊名称（例如：锦绣制衣）",
  yourName: "你的姓名",
  username: "用户名（登录用：2–32 个字母、数字或 . _ - @）",
  password: "密码（至少 8 个字符，不能是常见密码）",
  inviteCode: "邀请码",
  inviteLead: "这个 Weft 凭邀请码创建工作坊：请填运营方发给你的邀请码。",
  createWorkshop: "创建工作坊",
  creatingWorkshop: "正在创建…",
  signupClosed: "这个 Weft 暂不开放创建工作坊，请联系它的运营方。",
  toSignIn: "已有账号？去登录",
  goSignIn: "去登录",
  setPasswordTitle: "设置密码",
  setPasswordLead: (name: string, workshop: string) => `${name}，为你在“${workshop}”的账号设置密码。`,
  yourUsername: (username: string) => `你的用户名是 ${username}，登录时要用。`,
  setPassword: "设置密码",
  setting: "正在设置…",
  checkingLink: "正在检查链接…",
  linkInvalid: "这个链接已失效、已用过或不完整（链接 24 小时内有效，只能用一次）。请找老板要一个新链接。",
  passwordSet: (username: string) => `密码已设置。请用用户名 ${username} 和新密码登录。`,
};

const en: typeof zh = {
  signUpTitle: "Create a workshop",
  signUpLead: "Fill these in and you are the boss of the new workshop, ready to add your people.",
  workshopName: "Workshop name (e.g. Jinxiu Garments)",
  yourName: "Your name",
  username: "Username (to sign in: 2–32 letters, digits or . _ - @)",
  password: "Password (at least 8 characters, not a common one)",
  inviteCode: "Invite code",
  inviteLead: "This Weft creates workshops by invitation: enter the code its operator sent you.",
  createWorkshop: "Create workshop",
  creatingWorkshop: "Creating…",
  signupClosed: "This Weft does not take new workshops for now; contact its operator.",
  toSignIn: "Have an account? Sign in",
  goSignIn: "Sign in",
  setPasswordTitle: "Set your password",
  setPasswordLead: (name: string, workshop: string) => `${name}, set the password of your account at “${workshop}”.`,
  yourUsername: (username: string) => `Your username is ${username}; you sign in with it.`,
  setPassword: "Set password",
  setting: "Setting…",
  checkingLink: "Checking the link…",
  linkInvalid:
    "This link has expired, was used already or is incomplete (links work once, for 24 hours). Ask your boss for a new one.",
  passwordSet: (username: string) => `Your password is set. Sign in with the username ${username} and your new password.`,
};

/** The account pages' words in a language. */
export function accountWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}
