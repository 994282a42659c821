// The durable ingestion job as search sees it: the engine that starts jobs, and the steps a job runs on.

/** What starts a job: its id (the Workflow instance's), the document it reads a file into, and the workshop it acts for. */
export interface JobParams {
  jobId: string;
  documentId: string;
  tenantId: string;
}

/** The durable job engine as the wiring hands it to search: starts one job (a Workflow instance). */
export interface Ingestion {
  start(params: JobParams): Promise<void>;
}

/**
 * The part of a Workflow's `step` a job runs on: a named step runs to its end once, its result
 * kept, so a job resumed after a crash or a restart skips what it had finished.
 */
export interface JobSteps {
  do<T>(name: string, run: () => Promise<T>): Promise<T>;
}
