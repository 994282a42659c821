import {
  AuthorizationError,
  type AuthRequest,
  authorizationErrorRedirect,
  CimdFetchError,
  type OAuthHelpers,
} from "@cloudflare/workers-oauth-provider";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import type { AppEnv } from "../app-env.ts";
import { clientAddress } from "../auth/client-address.ts";
import { isMetadataDocumentId, loadMetadataDocument } from "../auth/oauth-cimd.ts";
import { recordConnection } from "../auth/oauth-connections.ts";
import { GRANT_TTL_SECONDS, OAUTH_PATHS, oauthHelpers, oauthOrigin, SCOPES } from "../auth/oauth-server.ts";
import { sessionToken, setSessionCookie } from "../auth/session-cookie.ts";
import { signInWithPassword } from "../auth/sign-in.ts";
import { findWebSession, type WebUser } from "../auth/web-sessions.ts";
import { AppError, notFound } from "../errors.ts";
import { CONFIRM_BY } from "../tools/confirm-by.ts";
import { consentPage, failurePage, type Lang, langOf, signInPage } from "./oauth-pages.ts";

/** `/oauth`: the authorize page of Weft's authorization server: sign-in, then consent. */
export const oauthRoutes = new Hono<AppEnv>();

const MAX_QUERY_LENGTH = 4096;

// Neither page may be framed (clickjacking), and neither needs a script.
oauthRoutes.use(async function pageHeaders(c, next) {
  await next();
  c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
  c.header("X-Frame-Options", "DENY");
  // Not "no-referrer": Chromium then posts the forms with `Origin: null`, which the Origin check refuses.
  c.header("Referrer-Policy", "same-origin");
  c.header("Cache-Control", "no-store");
});

oauthRoutes.use(
  bodyLimit({
    maxSize: 8192,
    onError: () => {
      throw new AppError("payload_too_large", "Authorization forms are limited to 8 KiB.");
    },
  }),
);

// A form posted from another site could sign a person in as someone else or approve a client for
// them: every POST here must carry this server's own Origin (browsers send it on form posts).
oauthRoutes.use(async function requireOwnOrigin(c, next) {
  if (c.req.method === "POST" && c.req.header("Origin") !== new URL(c.req.url).origin) {
    return c.html(failurePage({ lang: lang(c), message: "This form must be sent from Weft's own page." }), 403);
  }
  await next();
});

oauthRoutes.get("/authorize", async (c) => {
  const oauth = helpers(c);
  if (c.req.url.length > MAX_QUERY_LENGTH)
    return c.html(failurePage({ lang: lang(c), message: "The request is too long." }), 400);
  const clientId = c.req.query("client_id");
  if (clientId && isMetadataDocumentId(clientId)) {
    try {
      await loadMetadataDocument({ kv: c.var.directory.oauthKv, clientId });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return c.html(failurePage({ lang: lang(c), message: error.message }), 400);
    }
  }
  let request: AuthRequest;
  try {
    request = await oauth.parseAuthRequest(c.req.raw);
  } catch (error) {
    return authorizeFailure(c, error);
  }
  // OAuth 2.1 and MCP: every client proves its code with S256, confidential or not.
  if (!request.codeChallenge || request.codeChallengeMethod !== "S256") {
    return c.redirect(authorizationErrorRedirect(request, "invalid_request", "PKCE with S256 is required."), 302);
  }
  const user = await signedInUser(c);
  if (!user) return c.html(signInPage({ lang: lang(c), next: new URL(c.req.url).search }));
  const details = await oauth.describeConsent(request);
  const consent = await oauth.beginConsent(request);
  // A metadata document client's id is a URL on a domain it controls: the page names that domain.
  const clientDomain = isMetadataDocumentId(details.clientId) ? new URL(details.clientId).hostname : undefined;
  const page = await consentPage({
    lang: lang(c),
    details: { ...details, clientDomain },
    handle: consent.handle,
    user,
    wantsWrite: request.scope.includes(SCOPES.write),
  });
  return new Response(page, { headers: withHtml(consent.headers) });
});

const SignInForm = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(256),
  next: z.string().startsWith("?").max(MAX_QUERY_LENGTH),
});

/**
 * A posted form's fields, or `null` when the body is no form at all (a malformed multipart body,
 * a JSON body): the client's mistake, which each page answers with 400, never a 500.
 */
async function formFields(c: Context<AppEnv>): Promise<Record<string, unknown> | null> {
  try {
    const fields: Record<string, unknown> = Object.create(null);
    for (const [name, value] of await c.req.formData()) fields[name] = value;
    return fields;
  } catch {
    return null;
  }
}

oauthRoutes.post("/sign-in", async (c) => {
  const form = SignInForm.safeParse(await formFields(c));
  if (!form.success) return c.html(failurePage({ lang: lang(c), message: "Send a username and a password." }), 400);
  const { username, password, next } = form.data;
  try {
    const address = clientAddress({ header: c.req.header("CF-Connecting-IP"), trusted: c.var.config.trustClientIpHeader });
    const { token } = await signInWithPassword({ db: c.var.directory.db, username, password, address });
    setSessionCookie(c, token);
  } catch (error) {
    // Wrong credentials, too many tries, or a deactivated account: said on the page, in the form's place.
    if (!(error instanceof AppError) || ![401, 403, 429].includes(error.status)) throw error;
    return c.html(signInPage({ lang: lang(c), next, error: error.message }), error.status);
  }
  // Back to the same authorize request, on this origin only: `next` is a query, never a URL.
  return c.redirect(`${OAUTH_PATHS.authorize}${next}`, 303);
});

const ConsentForm = z.object({
  handle: z.string().min(1).max(512),
  decision: z.enum(["allow", "deny"]),
  access: z.enum(["read", "write"]).default("read"),
  // Who says yes to the app's writes: Weft's own pages unless the person chose otherwise.
  confirm_by: z.enum(CONFIRM_BY).default("weft"),
});

oauthRoutes.post("/authorize", async (c) => {
  const oauth = helpers(c);
  const form = ConsentForm.safeParse(await formFields(c));
  if (!form.success) return c.html(failurePage({ lang: lang(c), message: "The consent form is incomplete." }), 400);
  const user = await signedInUser(c);
  if (!user) return c.html(failurePage({ lang: lang(c), message: "Your sign-in has ended. Start connecting again." }), 401);
  const { handle, decision, access, confirm_by } = form.data;
  try {
    if (decision === "deny") {
      const denied = await oauth.denyConsent(c.req.raw, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    const scope = access === "write" ? [SCOPES.read, SCOPES.write] : [SCOPES.read];
    const approved = await oauth.approveConsent(c.req.raw, handle, { scope });
    const details = await oauth.describeConsent(approved.request);
    const connectionId = crypto.randomUUID();
    const props = { connectionId, userId: user.id, tenantId: user.tenant_id };
    const { redirectTo } = await oauth.completeAuthorization({
      request: approved.request,
      userId: user.id,
      metadata: { connectionId, tenantId: user.tenant_id },
      scope,
      props,
    });
    await recordConnection({
      db: c.var.directory.db,
      connection: {
        ...props,
        clientId: details.clientId,
        clientName: details.clientName.slice(0, 200),
        redirectHost: details.redirectHost.slice(0, 200),
        access,
        confirmBy: confirm_by,
        expiresAt: new Date(Date.now() + GRANT_TTL_SECONDS * 1000).toISOString(),
      },
    });
    approved.headers.set("Location", redirectTo);
    return new Response(null, { status: 302, headers: approved.headers });
  } catch (error) {
    return authorizeFailure(c, error);
  }
});

function helpers(c: Context<AppEnv>): OAuthHelpers {
  const origin = oauthOrigin(c.req.raw, c.var.config);
  if (!origin) throw notFound("OAuth is served over https (or http on localhost) only.");
  return oauthHelpers(origin, c.env);
}

function lang(c: Context<AppEnv>): Lang {
  return langOf(c.req.header("Accept-Language"));
}

async function signedInUser(c: Context<AppEnv>): Promise<WebUser | null> {
  const token = sessionToken(c);
  return token ? ((await findWebSession({ db: c.var.directory.db, token }))?.user ?? null) : null;
}

function withHtml(headers: Headers): Headers {
  headers.set("Content-Type", "text/html; charset=utf-8");
  return headers;
}

/**
 * A request the library refused: back to the client only when it validated the client and its
 * exact redirect URI, shown here otherwise (an unknown client, a used or expired page).
 */
async function authorizeFailure(c: Context<AppEnv>, error: unknown): Promise<Response> {
  if (error instanceof AuthorizationError && error.redirectTo) return c.redirect(error.redirectTo, 302);
  if (error instanceof AuthorizationError) return c.html(failurePage({ lang: lang(c), message: error.description }), 400);
  if (error instanceof CimdFetchError) {
    return c.html(
      failurePage({ lang: lang(c), message: "This app could not be verified: its metadata could not be read." }),
      400,
    );
  }
  throw error;
}
