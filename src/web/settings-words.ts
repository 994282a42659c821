// The words of the settings' API keys and recent writes, apart from i18n.ts so that the first load
// does not carry them: only the settings chunks import this file. It imports nothing of the
// browser's (not even i18n.ts's `Lang`), so the Workers tests can check its words.
import type { ConfirmationPath } from "../shapes.ts";

type Lang = "zh" | "en";

const zh = {
  apiKeys: "API 密钥",
  keysLead: "让 Cursor、Claude Code 等工具以你的身份、按你的角色使用 Weft（/mcp 和 REST）。密钥只在创建时显示一次。",
  workshopKeysLead: "你是管理员：这里是本工作坊所有人的密钥。",
  agentConfirmWhy: "“允许代理确认写入”默认关闭：每次写入前应由人看过预览并说“是”；只给你信任、会先问你的代理打开。",
  noKeys: "还没有密钥。",
  keyName: "新密钥的名称（例如：笔记本上的 Cursor）",
  createKey: "创建密钥",
  creating: "正在创建…",
  newKey: (name: string) => `新密钥“${name}”只显示这一次：现在复制并保存好。`,
  newKeyLabel: "新密钥",
  copy: "复制",
  copied: "已复制",
  copyFailed: "没能复制，请选中后手动复制。",
  savedIt: "我已保存",
  keyPrefix: (prefix: string) => `${prefix}…`,
  keyCreated: (date: string) => `创建于 ${date}`,
  keyLastUsed: (date: string) => `最近使用 ${date}`,
  keyNeverUsed: "还没用过",
  agentConfirm: "允许代理用这个密钥确认写入",
  agentConfirmOn: "代理可确认写入",
  confirmRevokeKey: (name: string) => `撤销密钥“${name}”？用它的工具会立即失去访问。`,
  recentWrites: "最近的写入",
  recentLead: "本工作坊最近执行的写入：何时、什么、是谁，以及通过哪条路径确认的。",
  noWrites: "还没有写入。",
  confirmedVia: {
    card: "卡片",
    elicitation: "对话确认",
    confirm_page: "确认页",
    agent_key: "代理密钥",
    settings: "设置表单",
  } as Record<ConfirmationPath, string>,
  viaUnknown: "确认方式未记录",
  viaLabel: "确认方式",
};

const en: typeof zh = {
  apiKeys: "API keys",
  keysLead:
    "Let tools such as Cursor or Claude Code use Weft as you, with your role (/mcp and REST). A key is shown once, when it is created.",
  workshopKeysLead: "As an admin you see the keys of everyone in the workshop.",
  agentConfirmWhy:
    "“Agents may confirm writes” is off by default: a person should see the preview and say yes before any write. Turn it on only for an agent you trust to ask you first.",
  noKeys: "No keys yet.",
  keyName: "Name of the new key (e.g. Cursor on my laptop)",
  createKey: "Create key",
  creating: "Creating…",
  newKey: (name: string) => `The new key “${name}” is shown only this once: copy it and keep it safe now.`,
  newKeyLabel: "New key",
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Could not copy; select the key and copy it by hand.",
  savedIt: "I have saved it",
  keyPrefix: (prefix: string) => `${prefix}…`,
  keyCreated: (date: string) => `created ${date}`,
  keyLastUsed: (date: string) => `last used ${date}`,
  keyNeverUsed: "never used",
  agentConfirm: "Agents may confirm writes with this key",
  agentConfirmOn: "agents may confirm writes",
  confirmRevokeKey: (name: string) => `Revoke the key “${name}”? Tools using it lose access at once.`,
  recentWrites: "Recent writes",
  recentLead: "The workshop's latest writes: when, what, who, and the path by which a person said yes.",
  noWrites: "No writes yet.",
  confirmedVia: {
    card: "card",
    elicitation: "in-conversation (elicitation)",
    confirm_page: "confirm page",
    agent_key: "agent key",
    settings: "settings form",
  },
  viaUnknown: "path not recorded",
  viaLabel: "Confirmed by",
};

/** The settings' words in a language. */
export function settingsWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}

/** A moment as the settings show it: date and minutes, in the browser's time zone. */
export function shortTime(iso: string, lang: Lang): string {
  return new Date(iso).toLocaleString(lang === "zh" ? "zh-CN" : "en-GB", { dateStyle: "short", timeStyle: "short" });
}

/** The path by which a person said yes to a write, in words: 卡片, 对话确认, 确认页, or 代理密钥 with the key's prefix. */
export function confirmedViaText(
  entry: { confirmed_via: ConfirmationPath | null; confirmed_key_prefix: string | null },
  words: typeof zh,
): string {
  if (entry.confirmed_via === null) return words.viaUnknown;
  const path = words.confirmedVia[entry.confirmed_via] ?? entry.confirmed_via;
  return entry.confirmed_via === "agent_key" && entry.confirmed_key_prefix
    ? `${path} ${words.keyPrefix(entry.confirmed_key_prefix)}`
    : path;
}
