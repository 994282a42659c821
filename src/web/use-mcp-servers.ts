import { useCallback, useEffect, useState } from "react";
import { ApiError, api, type McpServer, type NewMcpServer } from "./api.ts";

/** What the last test of a server found: its tools' names, or the error. */
export type TestResult = { ok: true; tools: string[]; latencyMs: number } | { ok: false; error: string };

/** The workshop's external MCP servers, with add, test, enable/disable and remove. */
export function useMcpServers(onUnauthorized: () => void) {
  const [servers, setServers] = useState<McpServer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tests, setTests] = useState<Record<string, TestResult | "running">>({});

  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && e.status === 401) onUnauthorized();
      else setError(e instanceof Error ? e.message : String(e));
    },
    [onUnauthorized],
  );

  const replace = (server: McpServer) => setServers((list) => (list ?? []).map((s) => (s.id === server.id ? server : s)));

  useEffect(() => {
    api
      .listMcpServers()
      .then((r) => setServers(r.servers))
      .catch(fail);
  }, [fail]);

  /** Registers a server; true when it was added (the form then clears). */
  const add = async (server: NewMcpServer): Promise<boolean> => {
    setError(null);
    try {
      const added = await api.addMcpServer(server);
      setServers((list) => [...(list ?? []), added]);
      return true;
    } catch (e) {
      fail(e);
      return false;
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
      setTests((t) => ({ ...t, [id]: { ok: false, error: e instanceof Error ? e.message : String(e) } }));
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

  return { servers, error, tests, add, test, setEnabled, remove };
}
