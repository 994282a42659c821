// UI text in Chinese (the default, for the workshops) and English, switched at run time.
import { createContext, useContext } from "react";

const zh = {
  signInTitle: "登录 Weft",
  signInLead: "车间的知识与业务助手",
  username: "用户名",
  password: "密码",
  signIn: "登录",
  signingIn: "正在登录…",
  badCredentials: "用户名或密码不正确。",
  rateLimited: (seconds: number) => `尝试次数过多，请 ${seconds} 秒后再试。`,
  unreachable: "无法连接服务器，请稍后再试。",
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
  confirmDelete: "删除这个对话？",
  untitled: "新对话",
  offlineModel: "正在使用离线模型：按关键词选工具、从知识库摘录回答，不是大语言模型。",
  placeholder: "输入消息，@ 选择知识库，Enter 发送，Shift+Enter 换行",
  messageLabel: "消息",
  send: "发送",
  stop: "停止",
  removeKb: (name: string) => `移除知识库 ${name}`,
  kbPicker: "选择知识库",
  noKbMatch: "没有匹配的知识库",
  documents: (n: number) => `${n} 篇文档`,
  selectedKbs: "本次提问使用的知识库",
  toolState: {
    "input-streaming": "准备中",
    "input-available": "运行中",
    "output-available": "完成",
    "output-error": "出错",
    other: "处理中",
  },
  toolInput: "参数",
  toolOutput: "结果",
  toolError: "错误",
  confirmTitle: "请确认",
  confirm: "确认",
  cancelAction: "取消",
  actionStatus: { pending: "待确认", confirmed: "已确认", cancelled: "已取消", expired: "已过期", failed: "失败" },
  expiresAt: (time: string) => `${time} 前有效`,
  ambiguities: "需要先弄清楚：",
  actionRetry: "没有完成，请再试一次。",
  actionNotRecorded: "操作已完成，但没能写进对话记录，刷新后卡片可能仍显示待确认。",
  consultationDone: "诊断完成",
  consultationOptions: "请选择",
  errorTitle: "出错了：",
  dismiss: "关闭",
  you: "我",
  assistant: "Weft",
  emptyChat: "可以问订单、计件、工资、工序，或者描述车间遇到的问题。",
  loading: "正在加载…",
  chatLoadFailed: "无法加载这个对话。",
  sessionExpired: "登录已过期，请重新登录。",
  sources: "引用",
  roles: { admin: "管理员", boss: "老板", staff: "员工" },
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
  rateLimited: (seconds: number) => `Too many attempts. Try again in ${seconds} s.`,
  unreachable: "Cannot reach the server. Try again later.",
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
  confirmDelete: "Delete this chat?",
  untitled: "New chat",
  offlineModel:
    "Offline model in use: it picks tools by keywords and answers with excerpts from the knowledge bases; it is not a large language model.",
  placeholder: "Message; @ picks knowledge bases, Enter sends, Shift+Enter adds a line",
  messageLabel: "Message",
  send: "Send",
  stop: "Stop",
  removeKb: (name: string) => `Remove knowledge base ${name}`,
  kbPicker: "Pick a knowledge base",
  noKbMatch: "No knowledge base matches",
  documents: (n: number) => `${n} documents`,
  selectedKbs: "Knowledge bases for this question",
  toolState: {
    "input-streaming": "preparing",
    "input-available": "running",
    "output-available": "done",
    "output-error": "failed",
    other: "working",
  },
  toolInput: "Input",
  toolOutput: "Output",
  toolError: "Error",
  confirmTitle: "Please confirm",
  confirm: "Confirm",
  cancelAction: "Cancel",
  actionStatus: { pending: "pending", confirmed: "confirmed", cancelled: "cancelled", expired: "expired", failed: "failed" },
  expiresAt: (time: string) => `valid until ${time}`,
  ambiguities: "To clear up first:",
  actionRetry: "Nothing was done. Please try again.",
  actionNotRecorded: "Done, but the chat history could not be updated; after a reload the card may still show as pending.",
  consultationDone: "Diagnosis complete",
  consultationOptions: "Choose one",
  errorTitle: "Something went wrong: ",
  dismiss: "Dismiss",
  you: "You",
  assistant: "Weft",
  emptyChat: "Ask about orders, pieces, pay or processes, or describe a problem in the workshop.",
  loading: "Loading…",
  chatLoadFailed: "This chat could not be loaded.",
  sessionExpired: "Your session has ended. Please sign in again.",
  sources: "Sources",
  roles: { admin: "admin", boss: "boss", staff: "staff" },
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
