import { firstUnprintable } from "../printable.ts";

/** The longest client name a registration may give, in characters: it heads the consent page. */
export const MAX_CLIENT_NAME_LENGTH = 200;
// A registration is a few hundred bytes; the provider reads the whole body otherwise.
const MAX_REGISTRATION_BYTES = 16 * 1024;

function invalid(description: string, origin: string | null): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (origin) {
    headers.set("Access-Control-Allow-Origin", origin);
    headers.set("Vary", "Origin");
  }
  return Response.json({ error: "invalid_client_metadata", error_description: description }, { status: 400, headers });
}

/**
 * Checks a dynamic client registration (RFC 7591) before the provider stores it: a body over
 * 16 KiB, or a `client_name` longer than 200 characters or holding a control or bidirectional
 * formatting character (NUL, ESC, U+202E, ...), is refused with 400 `invalid_client_metadata`,
 * since the name heads the consent page a person decides on. Anything else goes on to the
 * provider, with the body it was sent.
 */
export async function checkRegistration(request: Request): Promise<{ refused: Response } | { request: Request }> {
  const origin = request.headers.get("Origin");
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > MAX_REGISTRATION_BYTES)
    return { refused: invalid(`A registration is limited to ${MAX_REGISTRATION_BYTES} bytes.`, origin) };
  const text = await request.text();
  if (text.length > MAX_REGISTRATION_BYTES)
    return { refused: invalid(`A registration is limited to ${MAX_REGISTRATION_BYTES} bytes.`, origin) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const name =
    body && typeof body === "object" && Object.hasOwn(body, "client_name")
      ? (body as { client_name: unknown }).client_name
      : undefined;
  if (typeof name === "string") {
    if ([...name].length > MAX_CLIENT_NAME_LENGTH) {
      return { refused: invalid(`client_name is longer than ${MAX_CLIENT_NAME_LENGTH} characters.`, origin) };
    }
    const found = firstUnprintable(name);
    if (found) {
      return {
        refused: invalid(
          `client_name: character ${found.position} is ${found.codePoint}, a control or bidirectional formatting character, which names may not contain.`,
          origin,
        ),
      };
    }
  }
  return { request: new Request(request, { body: text }) };
}
