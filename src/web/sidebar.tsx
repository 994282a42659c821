import { useState } from "react";
import type { ChatSummary } from "./api.ts";
import { useI18n } from "./i18n.ts";
import { DownloadIcon, PencilIcon, TrashIcon } from "./icons.tsx";
import type { useChatList } from "./use-chat-list.ts";

interface Props {
  list: ReturnType<typeof useChatList>;
  currentId: string;
  onSelect: (id: string) => void;
  onNew: () => void;
  onDeleted: (id: string) => void;
}

function ChatItem({
  chat,
  current,
  onSelect,
  onRename,
  onDelete,
}: {
  chat: ChatSummary;
  current: boolean;
  onSelect: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const { t, lang } = useI18n();
  const [mode, setMode] = useState<"view" | "rename" | "delete">("view");
  const [title, setTitle] = useState(chat.title);

  if (mode === "rename") {
    const save = async () => {
      const next = title.trim();
      if (next && next !== chat.title) await onRename(next);
      setMode("view");
    };
    return (
      <li className="chat-item editing">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <input
            aria-label={t.renameLabel}
            value={title}
            maxLength={200}
            // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename.
            autoFocus
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Escape") setMode("view");
            }}
          />
          <button type="submit" className="primary">
            {t.save}
          </button>
          <button type="button" className="secondary" onClick={() => setMode("view")}>
            {t.cancel}
          </button>
        </form>
      </li>
    );
  }
  if (mode === "delete") {
    return (
      <li className="chat-item confirming">
        {/* The question names the chat: the row it replaces is no longer there to say which. */}
        <span className="confirm-delete-text">{t.confirmDelete(chat.title || t.untitled)}</span>
        <button type="button" className="danger" onClick={() => void onDelete()}>
          {t.delete}
        </button>
        <button type="button" className="secondary" onClick={() => setMode("view")}>
          {t.cancel}
        </button>
      </li>
    );
  }
  return (
    <li className={`chat-item${current ? " current" : ""}`} data-chat-id={chat.id}>
      <button type="button" className="chat-title" aria-current={current ? "page" : undefined} onClick={onSelect}>
        <span className="chat-title-text">{chat.title || t.untitled}</span>
      </button>
      <button
        type="button"
        className="icon"
        aria-label={`${t.rename}: ${chat.title}`}
        title={t.rename}
        onClick={() => {
          setTitle(chat.title);
          setMode("rename");
        }}
      >
        <PencilIcon />
      </button>
      <a
        className="icon"
        href={`/api/chats/${encodeURIComponent(chat.id)}/export?lang=${lang}`}
        download
        aria-label={`${t.export}: ${chat.title}`}
        title={t.export}
      >
        <DownloadIcon />
      </a>
      <button
        type="button"
        className="icon"
        aria-label={`${t.delete}: ${chat.title}`}
        title={t.delete}
        onClick={() => setMode("delete")}
      >
        <TrashIcon />
      </button>
    </li>
  );
}

/** The chat list: new, filter by title, switch, rename and delete (each asked once more before it happens). */
export function Sidebar({ list, currentId, onSelect, onNew, onDeleted }: Props) {
  const { t } = useI18n();
  return (
    <nav className="sidebar-inner" aria-label={t.menu}>
      <button type="button" className="primary new-chat" onClick={onNew}>
        + {t.newChat}
      </button>
      <input
        type="search"
        className="chat-filter"
        placeholder={t.filterChats}
        aria-label={t.filterChats}
        value={list.query}
        onChange={(event) => list.setQuery(event.target.value)}
      />
      <ul className="chat-list">
        {list.chats.map((chat) => (
          <ChatItem
            key={chat.id}
            chat={chat}
            current={chat.id === currentId}
            onSelect={() => onSelect(chat.id)}
            onRename={(title) => list.rename(chat.id, title)}
            onDelete={async () => {
              await list.remove(chat.id);
              onDeleted(chat.id);
            }}
          />
        ))}
      </ul>
      {list.loaded && list.chats.length === 0 && <p className="muted">{list.query ? t.noMatches : t.noChats}</p>}
      {list.nextCursor && (
        <button type="button" className="secondary" onClick={() => void list.loadMore()}>
          {t.loadMore}
        </button>
      )}
    </nav>
  );
}
