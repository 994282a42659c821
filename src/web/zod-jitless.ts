// The page's Content-Security-Policy (public/_headers) has no 'unsafe-eval'. zod, under the AI SDK's
// stream parser, would otherwise probe for `new Function` on its first parse, and the browser
// reports that probe as a policy violation even though zod catches it. Interpreted parsing is fast
// enough for a chat's stream. Imported first by the chat, before anything parses.
import { config } from "zod/v4/core";

config({ jitless: true });
