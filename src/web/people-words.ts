// The words of the settings' people section (a boss's and an admin's), apart from i18n.ts so that
// only that chunk carries them. It imports nothing of the browser's, so the Workers tests can read it.

type Lang = "zh" | "en";

const zh = {
  peopleTitle: "人员",
  peopleLead:
    "本车间的账号。添加人员时不填密码，会得到一个设置密码的链接（24 小时内有效，只能用一次，只显示这一次），用微信或短信发给他。",
  name: "姓名",
  username: "用户名（2–32 个字母、数字或 . _ - @）",
  role: "角色",
  passwordOptional: "密码（可不填：不填就生成设置密码的链接）",
  employee: "员工档案",
  noEmployee: "不关联",
  newEmployee: "新建员工档案（用此人的姓名）",
  employeeOption: (name: string, no: string, left: boolean) => `${name}（工号 ${no}${left ? "，已离职" : ""}）`,
  addPerson: "添加人员",
  add: "添加",
  adding: "正在添加…",
  linkFor: (name: string) => `${name} 的设置密码链接：24 小时内有效，只能用一次，只显示这一次。复制后用微信或短信发给他。`,
  linkLabel: "设置密码链接",
  copy: "复制",
  copied: "已复制",
  copyFailed: "没能复制，请选中后手动复制。",
  sent: "我已发送",
  resetPassword: "重置密码",
  deactivate: "停用",
  reactivate: "启用",
  confirmDeactivate: (name: string) => `停用 ${name}？他的登录、API 密钥和已连接的应用会立刻失效，记录都保留。`,
  inactive: "已停用",
  noPassword: "还没设密码",
  linkPending: "有未用的链接",
  onlyKeys: "只用 API 密钥",
  you: "你",
  edit: "编辑",
  editPerson: (name: string) => `编辑 ${name}`,
  ownRoleFixed: "自己的角色不能自己改。",
  linked: (name: string, no: string) => `员工档案：${name}（工号 ${no}）`,
  notLinked: "未关联员工档案",
};

const en: typeof zh = {
  peopleTitle: "People",
  peopleLead:
    "The workshop's accounts. Add someone without a password and you get a link for them to set their own (valid 24 hours, works once, shown only this once) to send by WeChat or SMS.",
  name: "Name",
  username: "Username (2–32 letters, digits or . _ - @)",
  role: "Role",
  passwordOptional: "Password (optional: without one you get a set-password link)",
  employee: "Employee record",
  noEmployee: "Not linked",
  newEmployee: "New employee record (with this person's name)",
  employeeOption: (name: string, no: string, left: boolean) => `${name} (no. ${no}${left ? ", left" : ""})`,
  addPerson: "Add person",
  add: "Add",
  adding: "Adding…",
  linkFor: (name: string) =>
    `${name}'s set-password link: valid 24 hours, works once, shown only this once. Copy it and send it by WeChat or SMS.`,
  linkLabel: "Set-password link",
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Could not copy; select the link and copy it by hand.",
  sent: "I have sent it",
  resetPassword: "Reset password",
  deactivate: "Deactivate",
  reactivate: "Reactivate",
  confirmDeactivate: (name: string) =>
    `Deactivate ${name}? Their sign-in, API keys and connected apps stop at once; their records stay.`,
  inactive: "deactivated",
  noPassword: "no password yet",
  linkPending: "unused link",
  onlyKeys: "API keys only",
  you: "you",
  edit: "Edit",
  editPerson: (name: string) => `Edit ${name}`,
  ownRoleFixed: "Nobody changes their own role.",
  linked: (name: string, no: string) => `Employee record: ${name} (no. ${no})`,
  notLinked: "No employee record linked",
};

/** The people section's words in a language. */
export function peopleWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}
