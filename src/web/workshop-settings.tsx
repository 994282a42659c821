import type { User } from "./api.ts";
import { FeedbackReview } from "./feedback-review.tsx";
import { KnowledgeFiles } from "./knowledge-files.tsx";
import { McpServers } from "./mcp-servers.tsx";
import { PeopleSettings } from "./people-settings.tsx";
import { RecentWrites } from "./recent-writes.tsx";
import type { SignInReturn } from "./sign-in-return.ts";

/**
 * The settings only a boss or an admin has: the workshop's people, its knowledge files, its recent
 * writes, the answers people rated 👎, and its external MCP servers. A chunk of its own, so that staff, whose settings hold only
 * what is theirs, never download it.
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
      <KnowledgeFiles onUnauthorized={onUnauthorized} />
      <RecentWrites onUnauthorized={onUnauthorized} />
      <FeedbackReview onUnauthorized={onUnauthorized} />
      <McpServers onUnauthorized={onUnauthorized} signInReturn={signInReturn} />
    </>
  );
}
