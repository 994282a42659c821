// UI text in Chinese (the default, for the workshops) and English, switched at run time.
import { createContext, useContext } from "react";
import type { PreparedIn } from "../shapes.ts";
import { OUTCOME_TEXT_EN, OUTCOME_TEXT_ZH } from "./outcome-text.ts";

const zh = {
  signInTitle: "登录 Weft",
  signInLead: "车间的知识与业务助手",
  username: "用户名",
  password: "密码",
  signIn: "登录",
  signingIn: "正在登录…",
  badCredentials: "用户名或密码不正确。",
  deactivated: "这个账号已停用，请找老板重新启用。",
  rateLimited: (seconds: number) =>
    `尝试次数过多，已暂时锁定。请 ${Math.max(1, Math.ceil(seconds / 60))} 分钟后再试；忘记密码请找老板重置。`,
  unreachable: "无法连接服务器，请稍后再试。",
  createWorkshop: "还没有工作坊？创建一个",
  signOut: "退出登录",
  switchLanguage: "English",
  switchLanguageLabel: "Switch to English",
  menu: "对话列表",
  closeMenu: "关闭对话列表",
  newChat: "新对话",
  filterChats: "按标题筛选对话",
  noChats: "还没有对话。",
  noMatches: "没有标题匹配的对话。",
  loadMore: "加载更多",
  rename: "重命名",
  renameLabel: "新标题",
  save: "保存",
  cancel: "取消",
  delete: "删除",
  export: "导出为 Markdown",
  confirmDelete: (title: string) => `删除“${title}”？`,
  untitled: "新对话",
  offlineModel: "正在使用离线模型：按关键词选工具、从知识库摘录回答，不是大语言模型。",
  placeholder: "输入消息，@ 选择知识库，Enter 发送，Shift+Enter 换行",
  /** On a touch keyboard, whose Enter starts a new line: the send button sends. */
  placeholderTouch: "输入消息，@ 选择知识库",
  messageLabel: "消息",
  send: "发送",
  stop: "停止",
  removeKb: (name: string) => `移除知识库 ${name}`,
  kbPicker: "选择知识库",
  noKbMatch: "没有匹配的知识库",
  documents: (n: number) => `${n} 篇文档`,
  faqEntries: (n: number) => `${n} 条问答`,
  selectedKbs: "本次提问使用的知识库",
  toolState: {
    "input-streaming": "准备中",
    "input-available": "运行中",
    "output-available": "完成",
    "output-error": "出错",
    other: "处理中",
  },
  toolInput: "参数",
  rawData: "原始数据",
  toolOutput: "结果",
  toolError: "错误",
  toolFailed: "这一步没有完成，回复里说了原因和接下来怎么做。",
  confirmTitle: "请确认",
  confirmPage: {
    title: "确认一项操作",
    /** Where the write was prepared, then what to do. */
    intro: (where: PreparedIn | undefined) =>
      `${
        where?.via === "chat"
          ? "你在 Weft 的对话里准备了下面这项操作。"
          : where?.via === "client"
            ? `MCP 客户端“${where.name}”为你准备了下面这项操作。`
            : where?.via === "agent_key"
              ? `一个用你的 API 密钥（${where.name}）的代理为你准备了下面这项操作。`
              : "下面这项操作是为你准备的。"
      }看清楚后点“确认”才会执行；不想执行就点“取消”。`,
    missing: "没有找到这项操作：链接可能不完整，或者它属于别人。",
    tryAgain: "没能完成，什么都没有写入。请再试一次。",
    backToChat: "回到对话",
  },
  confirm: "确认",
  cancelAction: "取消",
  actionNeedsChoice: "待补充",
  expiresAt: (time: string) => `${time} 前有效`,
  ambiguities: "需要先弄清楚：",
  /** What each kind of open choice asks, in place of the agent-facing message. */
  ambiguityAsks: new Map([
    ["employee", "是哪位员工？"],
    ["process", "是哪道工序？"],
    ["order", "记到哪张订单？"],
    ["style", "是哪个款式？"],
  ]),
  actionRetry: "没有完成，请再试一次。",

  /** How a confirm card words what was written or why it was refused. */
  outcomeText: OUTCOME_TEXT_ZH,
  consultationDone: "诊断完成",
  consultationOptions: "请选择",
  errorTitle: "出错了：",
  dismiss: "关闭",
  you: "我",
  assistant: "Weft",
  emptyChat: "可以问订单、计件、工资、工序，或者描述车间遇到的问题。",
  loading: "正在加载…",
  chatLoadFailed: "无法加载这个对话。",
  partLoadFailed: "页面的这一部分没有加载成功，请检查网络后重新加载。",
  reload: "重新加载",
  formatLoadFailed: "网络不稳，回答的排版没有加载，先显示原文。",
  sessionExpired: "登录已过期，请重新登录。",
  sources: "引用",
  roles: { admin: "管理员", boss: "老板", staff: "员工" },
  settings: "设置",
  backToChat: "返回对话",
  advanced: "高级",
  mcpServers: "外部 MCP 服务器",
  mcpLead: "登记外部 MCP 服务器后，它们的工具会加入本车间的对话。请求头的值只写入，不再显示。",
  noServers: "还没有登记服务器。",
  connectedClients: "已连接的应用",
  connectedLead: "你允许通过 OAuth 以你的身份使用 Weft 的应用（如 Claude、ChatGPT、VS Code）。撤销后，它的下一个请求即被拒绝。",
  noConnections: "还没有连接的应用。",
  connectionAccess: { read: "只读", write: "读取并准备写入" },
  connectedOn: (date: string, host: string) => `${date} 连接 · 发送到 ${host}`,
  revoke: "撤销",
  addServer: "添加服务器",
  serverName: "名称（a-z、0-9、_、-，最多 32 个字符）",
  serverUrl: "地址（URL）",
  headerName: "请求头名称",
  headerValue: "请求头的值",
  addHeader: "添加请求头",
  removeHeader: (n: number) => `移除第 ${n} 个请求头`,
  enabled: "启用（对话中使用它的工具）",
  exposeOnMcp: "通过本站的 /mcp 提供它的工具",
  adding: "正在添加…",
  test: "测试",
  testing: "正在测试…",
  enable: "启用",
  disable: "停用",
  isEnabled: "已启用",
  isDisabled: "已停用",
  confirmRemove: (name: string) => `删除服务器 ${name}？`,
  headerNames: "请求头",
  health: { ok: "正常", failing: "出错", unknown: "未测试", needs_sign_in: "需要登录" },
  toolCount: (n: number) => `${n} 个工具`,
  testOk: (n: number, ms: number) => `连接成功：${n} 个工具，用时 ${ms} ms`,
  testFailed: "连接失败：",
  lastError: "最近的错误：",
  authMethod: "认证方式",
  authHeaders: "请求头（如 API key）",
  authOAuth: "用 OAuth 登录",
  oauthHint: "添加后会跳转到服务提供方登录，登录完成后回到这里。",
  addAndSignIn: "添加并登录",
  usesOAuth: "OAuth 登录",
  serverSignIn: "登录",
  redirecting: "正在跳转…",
  signInStartFailed: "无法开始登录：",
  signInReturn: {
    ok: (name?: string) => (name ? `已登录 ${name}。` : "已登录。"),
    denied: "登录被拒绝或已取消。",
    expired: "这个登录链接已失效或已用过，请重新登录。",
    failed: "登录没有完成，请重试。",
    not_allowed: "请以这个服务器所属工作坊的老板身份登录 Weft，再重新登录这个服务器。",
  },
  signInReturnNotYours:
    "只有这个服务器所属工作坊的老板才能完成它的登录，所以没有做任何更改。请把登录链接交给老板，由老板登录 Weft 后打开。",
  edit: "编辑",
  editServer: (name: string) => `编辑 ${name}`,
  keepValue: "留空则不变",
  saving: "正在保存…",
  urlNeedsSignIn: "更改地址后需要重新登录。",
};

export type Messages = typeof zh;

const en: Messages = {
  signInTitle: "Sign in to Weft",
  signInLead: "Knowledge and business assistant for the workshop",
  username: "Username",
  password: "Password",
  signIn: "Sign in",
  signingIn: "Signing in…",
  badCredentials: "Wrong username or password.",
  deactivated: "This account has been deactivated. Ask your boss to turn it on again.",
  rateLimited: (seconds: number) =>
    `Too many attempts, so sign-in is locked for now. Try again in ${Math.max(1, Math.ceil(seconds / 60))} min; if you forgot the password, ask the boss to reset it.`,
  unreachable: "Cannot reach the server. Try again later.",
  createWorkshop: "No workshop yet? Create one",
  signOut: "Sign out",
  switchLanguage: "中文",
  switchLanguageLabel: "切换到中文",
  menu: "Chats",
  closeMenu: "Close the chat list",
  newChat: "New chat",
  filterChats: "Filter chats by title",
  noChats: "No chats yet.",
  noMatches: "No chat title matches.",
  loadMore: "Load more",
  rename: "Rename",
  renameLabel: "New title",
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  export: "Export as Markdown",
  confirmDelete: (title: string) => `Delete “${title}”?`,
  untitled: "New chat",
  offlineModel:
    "Offline model in use: it picks tools by keywords and answers with excerpts from the knowledge bases; it is not a large language model.",
  placeholder: "Message; @ picks knowledge bases, Enter sends",
  placeholderTouch: "Message; @ picks knowledge bases",
  messageLabel: "Message",
  send: "Send",
  stop: "Stop",
  removeKb: (name: string) => `Remove knowledge base ${name}`,
  kbPicker: "Pick a knowledge base",
  noKbMatch: "No knowledge base matches",
  documents: (n: number) => (n === 1 ? "1 document" : `${n} documents`),
  faqEntries: (n: number) => (n === 1 ? "1 FAQ entry" : `${n} FAQ entries`),
  selectedKbs: "Knowledge bases for this question",
  toolState: {
    "input-streaming": "preparing",
    "input-available": "running",
    "output-available": "done",
    "output-error": "failed",
    other: "working",
  },
  toolInput: "Input",
  rawData: "Raw data",
  toolOutput: "Output",
  toolError: "Error",
  toolFailed: "This step did not finish; the reply says why and what to do next.",
  confirmTitle: "Please confirm",
  confirmPage: {
    title: "Confirm an action",
    intro: (where: PreparedIn | undefined) =>
      `${
        where?.via === "chat"
          ? "You prepared the action below in Weft's chat."
          : where?.via === "client"
            ? `The MCP client “${where.name}” prepared the action below for you.`
            : where?.via === "agent_key"
              ? `An agent using your API key (${where.name}) prepared the action below for you.`
              : "The action below was prepared for you."
      } Nothing happens until you press Confirm; press Cancel if you do not want it.`,
    missing: "No such action: the link may be incomplete, or the action belongs to someone else.",
    tryAgain: "That did not go through and nothing was written. Try again.",
    backToChat: "Back to the chat",
  },
  confirm: "Confirm",
  cancelAction: "Cancel",
  actionNeedsChoice: "needs a choice",
  expiresAt: (time: string) => `valid until ${time}`,
  ambiguities: "To clear up first:",
  ambiguityAsks: new Map([
    ["employee", "Which employee?"],
    ["process", "Which process?"],
    ["order", "Which order?"],
    ["style", "Which style?"],
  ]),
  actionRetry: "Nothing was done. Please try again.",

  outcomeText: OUTCOME_TEXT_EN,
  consultationDone: "Diagnosis complete",
  consultationOptions: "Choose one",
  errorTitle: "Something went wrong: ",
  dismiss: "Dismiss",
  you: "You",
  assistant: "Weft",
  emptyChat: "Ask about orders, pieces, pay or processes, or describe a problem in the workshop.",
  loading: "Loading…",
  chatLoadFailed: "This chat could not be loaded.",
  partLoadFailed: "This part of the page did not load. Check the connection and reload.",
  reload: "Reload",
  formatLoadFailed: "The connection dropped before the answer's formatting loaded; showing the plain text.",
  sessionExpired: "Your session has ended. Please sign in again.",
  sources: "Sources",
  roles: { admin: "admin", boss: "boss", staff: "staff" },
  settings: "Settings",
  backToChat: "Back to chat",
  advanced: "Advanced",
  mcpServers: "External MCP servers",
  mcpLead:
    "The tools of registered external MCP servers join the workshop's chat. Header values are write-only and never shown again.",
  noServers: "No servers registered yet.",
  connectedClients: "Connected apps",
  connectedLead:
    "Apps you allowed to use Weft as you over OAuth (Claude, ChatGPT, VS Code, …). Once revoked, an app's next request is refused.",
  noConnections: "No connected apps yet.",
  connectionAccess: { read: "read only", write: "read and prepare writes" },
  connectedOn: (date: string, host: string) => `connected ${date} · sends to ${host}`,
  revoke: "Revoke",
  addServer: "Add server",
  serverName: "Name (a-z, 0-9, _, -, at most 32)",
  serverUrl: "URL",
  headerName: "Header name",
  headerValue: "Header value",
  addHeader: "Add a header",
  removeHeader: (n: number) => `Remove header ${n}`,
  enabled: "Enabled (the chat uses its tools)",
  exposeOnMcp: "Offer its tools on this site's /mcp",
  adding: "Adding…",
  test: "Test",
  testing: "Testing…",
  enable: "Enable",
  disable: "Disable",
  isEnabled: "enabled",
  isDisabled: "disabled",
  confirmRemove: (name: string) => `Delete server ${name}?`,
  headerNames: "Headers",
  health: { ok: "ok", failing: "failing", unknown: "not tested", needs_sign_in: "needs sign-in" },
  toolCount: (n: number) => `${n} tools`,
  testOk: (n: number, ms: number) => `Connected: ${n} tools in ${ms} ms`,
  testFailed: "Connection failed: ",
  lastError: "Last error: ",
  authMethod: "Authentication",
  authHeaders: "Headers (such as an API key)",
  authOAuth: "Sign in with OAuth",
  oauthHint: "After adding, you go to the provider to sign in, then come back here.",
  addAndSignIn: "Add and sign in",
  usesOAuth: "OAuth sign-in",
  serverSignIn: "Sign in",
  redirecting: "Redirecting…",
  signInStartFailed: "Could not start the sign-in: ",
  signInReturn: {
    ok: (name?: string) => (name ? `Signed in to ${name}.` : "Signed in."),
    denied: "The sign-in was refused or cancelled.",
    expired: "This sign-in link has expired or was already used. Please sign in again.",
    failed: "The sign-in did not complete. Please try again.",
    not_allowed: "Sign in to Weft as a boss of the workshop this server belongs to, then sign in to the server again.",
  },
  signInReturnNotYours:
    "Only a boss of the workshop this server belongs to can finish its sign-in, so nothing was changed. Pass the sign-in link to a boss, who opens it signed in to Weft.",
  edit: "Edit",
  editServer: (name: string) => `Edit ${name}`,
  keepValue: "Blank: unchanged",
  saving: "Saving…",
  urlNeedsSignIn: "Changing the URL means signing in again.",
};

export type Lang = "zh" | "en";

const MESSAGES: Record<Lang, Messages> = { zh, en };
const STORAGE_KEY = "weft.lang";

/** The language kept from the last visit, Chinese otherwise. */
export function initialLang(): Lang {
  return localStorage.getItem(STORAGE_KEY) === "en" ? "en" : "zh";
}

/** Remembers the language and sets the document's `lang`, so screen readers pronounce it right. */
export function applyLang(lang: Lang): void {
  localStorage.setItem(STORAGE_KEY, lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

/** The text for a language. */
export function messagesFor(lang: Lang): Messages {
  return MESSAGES[lang];
}

export const I18nContext = createContext<{ lang: Lang; t: Messages; setLang: (lang: Lang) => void }>({
  lang: "zh",
  t: zh,
  setLang: () => {},
});

/** The current language's text and the switch. */
export function useI18n() {
  return useContext(I18nContext);
}
