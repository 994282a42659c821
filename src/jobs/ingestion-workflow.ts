import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { placementOf } from "../auth/placement.ts";
import { configFor } from "../config.ts";
import { log } from "../log.ts";
import { changesData, guardedDatabase, movingError } from "../placement/fence.ts";
import type { JobParams, JobSteps } from "../search/ingestion.ts";
import { failJob, type JobOutcome, runIngestionJob } from "../search/ingestion-job.ts";
import type { SearchService } from "../search/service.ts";
import { directoryFor, servicesFor } from "../services.ts";

// A step that fails for a passing reason (D1 or Workers AI busy) is tried again, waiting longer each
// time; a file that cannot be read is not an error but the job's outcome, so it is never retried.
/** How long a write refused for a move tells its step to wait. */
const MOVE_RETRY_SECONDS = 60;

const STEP_CONFIG = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "10 minutes" } as const;

/**
 * The ingestion job (`INGESTION` in wrangler.toml): one instance a file upload, acting for the
 * workshop that uploaded it, whose services it builds through the wiring like any face. Its steps
 * are `runIngestionJob`'s; when one runs out of retries, the document is marked failed (nothing
 * half-written: the chunks are written by the last step alone) and the instance ends.
 */
export class IngestionWorkflow extends WorkflowEntrypoint<Env, JobParams> {
  override async run(event: Readonly<WorkflowEvent<JobParams>>, step: WorkflowStep): Promise<JobOutcome> {
    const placed = await this.searchFor(event.payload.tenantId);
    // The workshop was deleted since the upload: nothing is left to index into.
    if (!placed) return "superseded";
    const search: SearchService = { ...placed };
    const steps: JobSteps = {
      do: <T>(name: string, run: () => Promise<T>) =>
        step.do(name, STEP_CONFIG, async () => {
          // Where the workshop lives is read again before each step: a move may have switched it
          // meanwhile (a step refused while it was fenced is retried, and finds the new home).
          Object.assign(search, (await this.searchFor(event.payload.tenantId)) ?? {});
          return run() as Promise<never>;
        }) as Promise<T>,
    };
    try {
      return await runIngestionJob(search, event.payload, steps);
    } catch (error) {
      log("error", "ingestion_job_failed", { job_id: event.payload.jobId, error });
      await step.do("fail", STEP_CONFIG, async () => {
        await failJob(search, event.payload, "Indexing failed unexpectedly and nothing was stored; upload the file again.", {
          reason: "index_failed",
          params: {},
        });
        return "failed";
      });
      return "failed";
    }
  }

  /**
   * The workshop's search service where the directory places it now; `null` when it is gone. A step
   * may run for minutes, longer than a move waits for writes begun before its fence: so each write
   * the step makes asks the directory again first, and one meeting a move (or its switch) is refused
   * before it reaches the old shard, and the step is tried again later, where the workshop then lives.
   */
  private async searchFor(workshopId: string): Promise<SearchService | null> {
    const directory = directoryFor(this.env).db;
    const placed = await placementOf({ db: directory, workshopId });
    if (!placed) return null;
    const search = servicesFor(this.env, configFor(this.env), placed).search;
    const db = guardedDatabase(search.db, async (sqls) => {
      if (!sqls.some(changesData)) return;
      const now = await placementOf({ db: directory, workshopId });
      if (!now || now.moving || now.shard !== placed.shard) throw movingError(MOVE_RETRY_SECONDS);
    });
    return { ...search, db };
  }
}
