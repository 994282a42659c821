// The words of the settings' API keys and recent writes, apart from i18n.ts so that the first load
// does not carry them: only the settings chunks import this file. It imports nothing of the
// browser's (not even i18n.ts's `Lang`), so the Workers tests can check its words.
import type { ConfirmationPath, ConfirmBy } from "../shapes.ts";

type Lang = "zh" | "en";

const zh = {
  apiKeys: "API 密钥",
  keysLead: "让 Cursor、Claude Code 等工具以你的身份、按你的角色使用 Weft（/mcp 和 REST）。密钥只在创建时显示一次。",
  workshopKeysLead: "你是管理员：这里是本车间所有人的密钥。",
  confirmByLead:
    "每个密钥和每个已连接的应用都可以选：用它准备的写入由谁说“是”。新的默认是“我在 Weft 上确认”。只有你（或管理员）登录后在这里能改，密钥和应用自己改不了。",
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
  confirmByLabel: "写入由谁说“是”",
  confirmByOption: {
    weft: "我在 Weft 上确认",
    client: "我的 MCP 客户端问我",
    agent: "代理自己确认",
  } as Record<ConfirmBy, string>,
  confirmByTrusts: {
    weft: "只相信 Weft 自己的确认卡片和确认页：每次写入你都在 Weft 上看过预览再确认。",
    client: "相信你的 MCP 客户端会把预览如实给你看、问过你：它说你同意，就算你同意。",
    agent: "相信代理：它可以不问你直接确认写入。只给你完全信任、会先问你的代理。",
  } as Record<ConfirmBy, string>,
  confirmByBadge: { weft: "", client: "客户端问我", agent: "代理可确认" } as Record<ConfirmBy, string>,
  confirmRevokeKey: (name: string) => `撤销密钥“${name}”？用它的工具会立即失去访问。`,
  recentWrites: "最近的写入",
  recentLead: "本车间最近执行的写入：何时、什么、是谁，以及通过哪条路径确认的。",
  noWrites: "还没有写入。",
  confirmedVia: {
    card: "卡片",
    confirm_page: "确认页",
    url_elicitation: "客户端打开的确认页",
    form_elicitation: "客户端里的确认",
    agent_key: "代理",
    settings: "设置表单",
  } as Record<ConfirmationPath, string>,
  viaUnknown: "确认方式未记录",
  viaLabel: "确认方式",
  showShown: "当时看到的预览",
  shownTitle: "确认时给这个人看的预览（原文）",
  shownDigest: (sha: string) => `SHA-256：${sha}`,
  shownMissing: "这条写入没有保存当时的预览（早于这项记录）。",
};

const en: typeof zh = {
  apiKeys: "API keys",
  keysLead:
    "Let tools such as Cursor or Claude Code use Weft as you, with your role (/mcp and REST). A key is shown once, when it is created.",
  workshopKeysLead: "As an admin you see the keys of everyone in the workshop.",
  confirmByLead:
    "For each key and each connected app, choose who says yes to the writes it prepares. New ones start with “Me, on Weft”. Only you (or an admin) can change this here, signed in; a key or an app cannot change it itself.",
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
  confirmByLabel: "Who says yes to writes",
  confirmByOption: {
    weft: "Me, on Weft",
    client: "My MCP client asks me",
    agent: "The agent itself",
  },
  confirmByTrusts: {
    weft: "Trusts only Weft's own confirm card and page: you see the preview on Weft and confirm each write there.",
    client: "Trusts your MCP client to show you the preview truly and ask you: when it says you agreed, you did.",
    agent: "Trusts the agent: it may confirm writes without asking you. Only for an agent you fully trust to ask first.",
  },
  confirmByBadge: { weft: "", client: "client asks me", agent: "agent may confirm" },
  confirmRevokeKey: (name: string) => `Revoke the key “${name}”? Tools using it lose access at once.`,
  recentWrites: "Recent writes",
  recentLead: "The workshop's latest writes: when, what, who, and the path by which a person said yes.",
  noWrites: "No writes yet.",
  confirmedVia: {
    card: "card",
    confirm_page: "confirm page",
    url_elicitation: "confirm page opened by the client",
    form_elicitation: "in the MCP client",
    agent_key: "agent",
    settings: "settings form",
  },
  viaUnknown: "path not recorded",
  viaLabel: "Confirmed by",
  showShown: "What they saw",
  shownTitle: "The preview this person was shown when they said yes (verbatim)",
  shownDigest: (sha: string) => `SHA-256: ${sha}`,
  shownMissing: "This write kept no preview (it predates the record).",
};

/** The settings' words in a language. */
export function settingsWords(lang: Lang): typeof zh {
  return lang === "zh" ? zh : en;
}

/** A moment as the settings show it: date and minutes, in the browser's time zone. */
export function shortTime(iso: string, lang: Lang): string {
  return new Date(iso).toLocaleString(lang === "zh" ? "zh-CN" : "en-GB", { dateStyle: "short", timeStyle: "short" });
}

/**
 * The path by which a write was said yes to, in words (卡片, 确认页, 客户端里的确认, 代理, ...), with
 * the credential it was confirmed with: a key's prefix, or an app's name.
 */
export function confirmedViaText(
  entry: { confirmed_via: ConfirmationPath | null; credential: string | null },
  words: typeof zh,
): string {
  if (entry.confirmed_via === null) return words.viaUnknown;
  const path = Object.hasOwn(words.confirmedVia, entry.confirmed_via)
    ? words.confirmedVia[entry.confirmed_via]
    : entry.confirmed_via;
  return entry.credential ? `${path} · ${entry.credential}` : path;
}
