import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, api, type ChatSummary } from "./api.ts";

const FILTER_DELAY_MS = 250;

/** The signed-in user's chats, newest first, filtered by title words and paged with the server's cursor. */
export function useChatList(onUnauthorized: () => void) {
  const [chats, setChats] = useState<ChatSummary[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  const [loaded, setLoaded] = useState(false);
  // Answers can arrive out of order while the filter is typed; only the latest request may set the list.
  const generation = useRef(0);

  const fail = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) onUnauthorized();
    },
    [onUnauthorized],
  );

  const refresh = useCallback(
    async (q: string) => {
      const mine = ++generation.current;
      try {
        const page = await api.listChats({ q: q.trim() || undefined });
        if (mine !== generation.current) return;
        setChats(page.chats);
        setNextCursor(page.next_cursor);
      } catch (error) {
        fail(error);
      } finally {
        if (mine === generation.current) setLoaded(true);
      }
    },
    [fail],
  );

  useEffect(() => {
    const timer = setTimeout(() => void refresh(query), query ? FILTER_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [query, refresh]);

  const loadMore = async () => {
    if (!nextCursor) return;
    const mine = generation.current;
    try {
      const page = await api.listChats({ q: query.trim() || undefined, cursor: nextCursor });
      if (mine !== generation.current) return;
      setChats((current) => [...current, ...page.chats.filter((c) => !current.some((d) => d.id === c.id))]);
      setNextCursor(page.next_cursor);
    } catch (error) {
      fail(error);
    }
  };

  const rename = async (id: string, title: string) => {
    try {
      await api.renameChat(id, title);
      setChats((current) => current.map((c) => (c.id === id ? { ...c, title } : c)));
    } catch (error) {
      fail(error);
    }
  };

  const remove = async (id: string) => {
    try {
      await api.deleteChat(id);
      setChats((current) => current.filter((c) => c.id !== id));
    } catch (error) {
      fail(error);
    }
  };

  return { chats, nextCursor, query, setQuery, loaded, refresh: () => refresh(query), loadMore, rename, remove };
}
