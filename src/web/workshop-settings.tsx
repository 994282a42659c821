import type { User } from "./api.ts";
import { McpServers } from "./mcp-servers.tsx";
import { PeopleSettings } from "./people-settings.tsx";
import { RecentWrites } from "./recent-writes.tsx";
import type { SignInReturn } from "./sign-in-return.ts";

/**
 * The settings only a boss or an admin has: the workshop's people, its recent writes and its
 * external MCP servers. A chunk of its own, so that staff, whose settings hold only what is
 * theirs, never download it.
 */
export function WorkshopSettings({
  user,
  onUnauthorized,
  signInReturn,
}: {
  user: User;
  onUnauthorized: () => void;
  signInReturn: SignInReturn | null;
}) {
  return (
    <>
      <PeopleSettings user={user} onUnauthorized={onUnauthorized} />
      <RecentWrites onUnauthorized={onUnauthorized} />
      <McpServers onUnauthorized={onUnauthorized} signInReturn={signInReturn} />
    </>
  );
}
