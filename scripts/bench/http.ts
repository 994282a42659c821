// JSON over HTTP for the developer scripts (bench, eval): one POST with a key, failing loudly.

/** POSTs `body` as JSON with `Authorization: Bearer <key>` and returns the parsed answer; throws on any non-2xx. */
export async function postJson<T>(baseUrl: string, key: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
