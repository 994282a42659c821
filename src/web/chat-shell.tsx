import "./zod-jitless.ts";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { ApiError, api, type KnowledgeBase, type ModelInfo, type User } from "./api.ts";
import type { WeftMessage } from "./chat-types.ts";
import { ChatView } from "./chat-view.tsx";
import { useI18n } from "./i18n.ts";
import { CloseIcon, MenuIcon } from "./icons.tsx";
import { preloadMarkdown } from "./lazy-markdown.tsx";
import { LoadBoundary } from "./load-failed.tsx";
import { Sidebar } from "./sidebar.tsx";
import { type SignInReturn, signInReturnText } from "./sign-in-return.ts";
import { useChatList } from "./use-chat-list.ts";

// Settings load when someone opens them; the chat never needs them.
const Settings = lazy(() => import("./settings.tsx").then((m) => ({ default: m.Settings })));

type Current = { id: string; messages: WeftMessage[] } | { id: string; messages: null; failed: boolean };

const HASH = /^#chat=([A-Za-z0-9_-]{1,100})$/;

function chatIdFromHash(): string | null {
  return HASH.exec(location.hash)?.[1] ?? null;
}

function showInHash(id: string) {
  history.replaceState(null, "", `#chat=${id}`);
}

/** The signed-in screen: header, chat list, and the open conversation (kept in the URL so a reload reopens it). */
export function ChatShell({
  user,
  signInReturn,
  onSignOut,
  onUnauthorized,
}: {
  user: User;
  /** How an MCP server's OAuth sign-in ended, when the browser just came back from its provider. */
  signInReturn: SignInReturn | null;
  onSignOut: () => void;
  onUnauthorized: () => void;
}) {
  const { t, lang, setLang } = useI18n();
  const list = useChatList(onUnauthorized);
  const [current, setCurrent] = useState<Current>(() => ({ id: crypto.randomUUID(), messages: [] }));
  const [knowledgeBases, setKnowledgeBases] = useState<KnowledgeBase[]>([]);
  const [model, setModel] = useState<ModelInfo | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const [offlineNoticeClosed, setOfflineNoticeClosed] = useState(false);
  const canConfigure = user.role === "boss" || user.role === "admin";
  // Back from an MCP server's OAuth provider: a boss's settings page opens and says how it went;
  // anyone else (staff, whose settings have no MCP servers) is told above the chat.
  const [settingsOpen, setSettingsOpen] = useState(signInReturn !== null && canConfigure);
  const [notice, setNotice] = useState(canConfigure ? null : signInReturn);

  const newChat = useCallback(() => {
    const id = crypto.randomUUID();
    setCurrent({ id, messages: [] });
    history.replaceState(null, "", location.pathname);
    setMenuOpen(false);
  }, []);

  const open = useCallback(
    async (id: string) => {
      // A stored conversation has answers to render: the renderer loads beside the messages.
      void preloadMarkdown();
      setCurrent({ id, messages: null, failed: false });
      setMenuOpen(false);
      showInHash(id);
      try {
        const chat = await api.getChat(id);
        setCurrent((c) => (c.id === id ? { id, messages: chat.messages as WeftMessage[] } : c));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) onUnauthorized();
        else setCurrent((c) => (c.id === id ? { id, messages: null, failed: true } : c));
      }
    },
    [onUnauthorized],
  );

  useEffect(() => {
    const fromHash = chatIdFromHash();
    if (fromHash) void open(fromHash);
    api
      .knowledgeBases()
      .then((r) => setKnowledgeBases(r.knowledge_bases))
      .catch((error) => error instanceof ApiError && error.status === 401 && onUnauthorized());
    api
      .model()
      .then(setModel)
      .catch(() => setModel(null));
  }, [open, onUnauthorized]);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [menuOpen]);

  const closeSettings = useCallback(() => setSettingsOpen(false), []);

  const refreshList = list.refresh;
  const onTurnEnd = useCallback(() => {
    showInHash(current.id);
    void refreshList();
  }, [current.id, refreshList]);
  // Once a reply streams, its question is stored: a reload from here reopens the chat and follows it.
  const onTurnStart = useCallback(() => showInHash(current.id), [current.id]);

  return (
    <div className={`shell${menuOpen ? " menu-open" : ""}`}>
      <header className="topbar">
        <button
          type="button"
          className="icon menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          aria-label={menuOpen ? t.closeMenu : t.menu}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <MenuIcon />
        </button>
        <h1>Weft</h1>
        <span className="who" title={user.tenant_name}>
          {user.name} · {t.roles[user.role] ?? user.role}
          <span className="tenant"> · {user.tenant_name}</span>
        </span>
        <button
          type="button"
          className="secondary lang"
          lang={lang === "zh" ? "en" : "zh-CN"}
          aria-label={t.switchLanguageLabel}
          onClick={() => setLang(lang === "zh" ? "en" : "zh")}
        >
          {t.switchLanguage}
        </button>
        <button
          type="button"
          className="secondary settings-toggle"
          aria-pressed={settingsOpen}
          onClick={() => setSettingsOpen((o) => !o)}
        >
          {t.settings}
        </button>
        <button type="button" className="secondary" onClick={onSignOut}>
          {t.signOut}
        </button>
      </header>
      {model?.offline && !offlineNoticeClosed && (
        <div className="offline-notice" role="note" data-model={model.id} title={model.label}>
          <span>{t.offlineModel}</span>
          <button
            type="button"
            className="icon"
            aria-label={t.dismiss}
            title={t.dismiss}
            onClick={() => setOfflineNoticeClosed(true)}
          >
            <CloseIcon />
          </button>
        </div>
      )}
      {notice && (
        <div className="sign-in-notice shell-notice error-text" role="status">
          <span>{signInReturnText(t, notice, { staff: true })}</span>
          <button type="button" className="secondary" onClick={() => setNotice(null)}>
            {t.dismiss}
          </button>
        </div>
      )}
      <div className="body">
        <aside id="sidebar" className="sidebar">
          <p className="tenant-in-menu">{user.tenant_name}</p>
          <Sidebar
            list={list}
            currentId={current.id}
            onSelect={(id) => void open(id)}
            onNew={newChat}
            onDeleted={(id) => id === current.id && newChat()}
          />
        </aside>
        <main className="main">
          {settingsOpen ? (
            <LoadBoundary>
              <Suspense fallback={<p className="muted center">{t.loading}</p>}>
                <Settings
                  user={user}
                  onClose={closeSettings}
                  onUnauthorized={onUnauthorized}
                  signInReturn={canConfigure ? signInReturn : null}
                />
              </Suspense>
            </LoadBoundary>
          ) : current.messages ? (
            <ChatView
              key={current.id}
              role={user.role}
              chatId={current.id}
              initialMessages={current.messages}
              knowledgeBases={knowledgeBases}
              onTurnEnd={onTurnEnd}
              onTurnStart={onTurnStart}
              onUnauthorized={onUnauthorized}
            />
          ) : (
            <p className="muted center">{current.failed ? t.chatLoadFailed : t.loading}</p>
          )}
        </main>
      </div>
    </div>
  );
}
