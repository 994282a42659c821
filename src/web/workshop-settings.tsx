import type { User } from "./api.ts";
import { BusinessSettings } from "./business-settings.tsx";
import { FeedbackReview } from "./feedback-review.tsx";
import { KnowledgeFiles } from "./knowledge-files.tsx";
import { McpServers } from "./mcp-servers.tsx";
import { PeopleSettings } from "./people-settings.tsx";
import { RecentWrites } from "./recent-writes.tsx";
import type { SignInReturn } from "./sign-in-return.ts";

/**
 * The settings only a boss or an admin has. `main`: what a boss uses (the workshop's people, its
 * data (车间资料: employees, prices, orders), its recent writes, its knowledge files, the answers people rated 👎); `advanced`: its external MCP
 * servers, under the settings' 高级 heading. A chunk of its own, so that staff, whose settings hold
 * only what is theirs, never download it.
 */
export function WorkshopSettings({
  user,
  part,
  onUnauthorized,
  signInReturn,
}: {
  user: User;
  part: "main" | "advanced";
  onUnauthorized: () => void;
  signInReturn: SignInReturn | null;
}) {
  if (part === "advanced") return <McpServers onUnauthorized={onUnauthorized} signInReturn={signInReturn} />;
  return (
    <>
      <PeopleSettings user={user} onUnauthorized={onUnauthorized} />
      <BusinessSettings onUnauthorized={onUnauthorized} />
      <RecentWrites onUnauthorized={onUnauthorized} />
      <KnowledgeFiles onUnauthorized={onUnauthorized} />
      <FeedbackReview onUnauthorized={onUnauthorized} />
    </>
  );
}
