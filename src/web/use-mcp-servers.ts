import { useEffect, useState } from "react";
import { ApiError, api, type McpServer, type NewMcpServer } from "./api.ts";
import type { McpServerChanges } from "./server-changes.ts";
import { useRequestError } from "./use-request-error.ts";

/** What the last test of a server found: its tools' names, or the error. */
export type TestResult = { ok: true; tools: string[]; latencyMs: number } | { ok: false; error: string };

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Sends the browser to an OAuth provider's sign-in page; it comes back through `/api/mcp/oauth/callback`. */
function goToProvider(url: string) {
  location.assign(url);
}

/** The workshop's external MCP servers, with add, edit, sign in, test, enable/disable and remove. */
export function useMcpServers(onUnauthorized: () => void) {
  const [servers, setServers] = useState<McpServer[] | null>(null);
  const { error, setError, fail } = useRequestError(onUnauthorized);
  const [tests, setTests] = useState<Record<string, TestResult | "running">>({});
  // Why a sign-in could not start, per server.
  const [signInErrors, setSignInErrors] = useState<Record<string, string>>({});

  const replace = (server: McpServer) => setServers((list) => (list ?? []).map((s) => (s.id === server.id ? server : s)));
  const signInFailed = (id: string, message: string) => setSignInErrors((all) => ({ ...all, [id]: message }));

  useEffect(() => {
    api
      .listMcpServers()
      .then((r) => setServers(r.servers))
      .catch(fail);
  }, [fail]);

  /** Registers a server (an OAuth one then goes to its provider); true when it was added (the form then clears). */
  const add = async (server: NewMcpServer): Promise<boolean> => {
    setError(null);
    try {
      const { sign_in, ...added } = await api.addMcpServer(server);
      setServers((list) => [...(list ?? []), added]);
      if (sign_in?.authorization_url) goToProvider(sign_in.authorization_url);
      else if (sign_in?.error) signInFailed(added.id, sign_in.error);
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  };

  /** Starts an OAuth server's sign-in again (first time, or when its health says it needs one). */
  const signIn = async (id: string) => {
    setSignInErrors(({ [id]: _, ...rest }) => rest);
    try {
      goToProvider((await api.signInMcpServer(id)).authorization_url);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return onUnauthorized();
      signInFailed(id, messageOf(e));
    }
  };

  /** Saves an edit; the error's text when it was refused (the form stays open to fix it). */
  const update = async (id: string, changes: McpServerChanges): Promise<string | null> => {
    try {
      replace(await api.updateMcpServer(id, changes));
      setTests(({ [id]: _, ...rest }) => rest);
      return null;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      return messageOf(e);
    }
  };

  const test = async (id: string) => {
    setTests((t) => ({ ...t, [id]: "running" }));
    try {
      const result = await api.testMcpServer(id);
      replace(result.server);
      setTests((t) => ({ ...t, [id]: { ok: true, tools: result.tools.map((tool) => tool.name), latencyMs: result.latency_ms } }));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return onUnauthorized();
      setTests((t) => ({ ...t, [id]: { ok: false, error: messageOf(e) } }));
      api
        .listMcpServers()
        .then((r) => setServers(r.servers))
        .catch(() => {});
    }
  };

  const setEnabled = async (id: string, enabled: boolean) => {
    setError(null);
    try {
      replace(await api.setMcpServerEnabled(id, enabled));
    } catch (e) {
      fail(e);
    }
  };

  const remove = async (id: string) => {
    setError(null);
    try {
      await api.deleteMcpServer(id);
      setServers((list) => (list ?? []).filter((s) => s.id !== id));
    } catch (e) {
      fail(e);
    }
  };

  return { servers, error, tests, signInErrors, add, signIn, update, test, setEnabled, remove };
}
