import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { WebUser } from "../auth/web-sessions.ts";
import { printable } from "../printable.ts";

/** The authorize pages speak Chinese to a browser that prefers it, English otherwise. */
export type Lang = "zh" | "en";

const ROLE_ZH = { admin: "管理员", boss: "老板", staff: "员工" } as const;

const TEXT = {
  zh: {
    title: "连接到 Weft",
    signInLead: "一个应用想以你的身份连接 Weft。请先登录。",
    username: "用户名",
    password: "密码",
    signIn: "登录",
    consentLead: (client: string) => `${client} 想以你的身份使用 Weft`,
    who: (user: WebUser) => `你已登录为 ${user.name}（${ROLE_ZH[user.role]}），工坊：${user.tenant_name}。`,
    verified: (domain: string) => `这个应用由 ${domain} 发布。`,
    unverified: "这个应用自行注册，名称未经核实。",
    sendsTo: (host: string) => `授权将发送到 ${host}。`,
    loopback: "授权将发送到你电脑上的一个应用。只有在你刚从该应用开始连接时才继续。",
    access: "应用能做什么",
    read: "只读（weft:read）：搜索知识库，查询订单、计件和工资",
    write: "读取并准备写入（weft:read 和 weft:write）：另可开始咨询、准备订单和计件；每次写入仍要有人说“是”才保存",
    confirmBy: "它准备的写入由谁说“是”",
    confirmByWeft: "我在 Weft 上确认（推荐）：在 Weft 的确认页看过预览后点确认",
    confirmByClient: "应用问我：应用在它自己的界面里把预览给我看，我的回答就算确认（相信这个应用会如实问我）",
    confirmByAgent: "代理自己确认：代理可以不问我直接确认（只给完全信任、会先问我的代理）",
    allow: "允许",
    deny: "拒绝",
    failed: "无法完成连接",
  },
  en: {
    title: "Connect to Weft",
    signInLead: "An app wants to connect to Weft as you. Sign in first.",
    username: "Username",
    password: "Password",
    signIn: "Sign in",
    consentLead: (client: string) => `${client} wants to use Weft as you`,
    who: (user: WebUser) => `You are signed in as ${user.name} (${user.role}) of ${user.tenant_name}.`,
    verified: (domain: string) => `This app is published by ${domain}.`,
    unverified: "This app registered itself; its name is not verified.",
    sendsTo: (host: string) => `Access will be sent to ${host}.`,
    loopback: "Access goes to an app on your computer. Continue only if you just started connecting from it.",
    access: "What the app may do",
    read: "Read only (weft:read): search the knowledge bases, look up orders, piece records and payroll",
    write:
      "Read and prepare writes (weft:read and weft:write): also run consultations, prepare orders and piece records; each write is saved only after a yes",
    confirmBy: "Who says yes to the writes it prepares",
    confirmByWeft: "Me, on Weft (recommended): I check the preview on Weft's confirm page and press Confirm",
    confirmByClient:
      "The app asks me: it shows me the preview in its own window and my answer confirms (trusts the app to ask me truly)",
    confirmByAgent: "The agent itself: it may confirm without asking me (only for an agent I fully trust to ask first)",
    allow: "Allow",
    deny: "Deny",
    failed: "The connection could not be made",
  },
} as const;

/** The language of the pages for a request's `Accept-Language`. */
export function langOf(acceptLanguage: string | undefined): Lang {
  return /^\s*zh/i.test(acceptLanguage ?? "") ? "zh" : "en";
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.3rem}label{display:block;margin:.6rem 0}fieldset{border:1px solid #d0d7de;margin:.8rem 0;padding:.2rem .8rem}input[type=text],input[type=password]{width:100%;padding:.4rem;box-sizing:border-box}
button{padding:.45rem 1.2rem;margin-right:.6rem}.warn{background:#fff4d6;padding:.5rem}.error{color:#b42318}`;

function layout(lang: Lang, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
<html lang="${lang === "zh" ? "zh-CN" : "en"}">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${TEXT[lang].title}</title>
<style>${STYLE}</style>
<body>${body}</body>
</html>`;
}

/** The sign-in form; it posts back with `next`, the authorize request's query, to return to it. */
export function signInPage({ lang, next, error }: { lang: Lang; next: string; error?: string }) {
  const t = TEXT[lang];
  return layout(
    lang,
    html`<h1>${t.title}</h1>
<p>${t.signInLead}</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form method="post" action="/oauth/sign-in">
  <input type="hidden" name="next" value="${next}">
  <label>${t.username}<input type="text" name="username" autocomplete="username" required></label>
  <label>${t.password}<input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">${t.signIn}</button>
</form>`,
  );
}

/**
 * The consent form: who asks, where access goes, as whom, which access (read preselected unless
 * writes were asked), each scope explained, and who says yes to the writes the app prepares
 * (Weft's own pages preselected). The app's name is shown with any control or bidirectional
 * character as its code point, whatever was registered.
 */
export function consentPage({
  lang,
  details,
  handle,
  user,
  wantsWrite,
}: {
  lang: Lang;
  details: ConsentDescription;
  handle: string;
  user: WebUser;
  wantsWrite: boolean;
}) {
  const t = TEXT[lang];
  return layout(
    lang,
    html`<h1>${t.consentLead(printable(details.clientName))}</h1>
<p>${details.clientDomain ? t.verified(details.clientDomain) : t.unverified} ${t.sendsTo(details.redirectHost)}</p>
${details.redirectIsLoopback ? html`<p class="warn">${t.loopback}</p>` : ""}
<p>${t.who(user)}</p>
<form method="post" action="/oauth/authorize">
  <input type="hidden" name="handle" value="${handle}">
  <fieldset><legend>${t.access}</legend>
  <label><input type="radio" name="access" value="read" ${wantsWrite ? "" : "checked"}> ${t.read}</label>
  <label><input type="radio" name="access" value="write" ${wantsWrite ? "checked" : ""}> ${t.write}</label>
  </fieldset>
  <fieldset><legend>${t.confirmBy}</legend>
  <label><input type="radio" name="confirm_by" value="weft" checked> ${t.confirmByWeft}</label>
  <label><input type="radio" name="confirm_by" value="client"> ${t.confirmByClient}</label>
  <label><input type="radio" name="confirm_by" value="agent"> ${t.confirmByAgent}</label>
  </fieldset>
  <p><button type="submit" name="decision" value="allow">${t.allow}</button><button type="submit" name="decision" value="deny">${t.deny}</button></p>
</form>`,
  );
}

/** A failure that must not go back to the client (its redirect URI is not trusted, or the page expired). */
export function failurePage({ lang, message }: { lang: Lang; message: string }) {
  return layout(lang, html`<h1>${TEXT[lang].failed}</h1><p class="error">${message}</p>`);
}
