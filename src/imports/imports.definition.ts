import {
  createdAt,
  id,
  index,
  integer,
  json,
  primaryKey,
  table,
  text,
  timestamp,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

export const IMPORT_SOURCES = ["zendesk", "freshdesk", "helpscout", "imap", "csv"] as const;
export const IMPORT_STATUSES = ["queued", "running", "succeeded", "failed", "canceled"] as const;

export type ImportSourceName = (typeof IMPORT_SOURCES)[number];
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export type ImportCounts = {
  tickets: number;
  messages: number;
  contacts: number;
  companies: number;
  attachments: number;
  users: number;
  skipped: number;
  failed: number;
};
export type ImportError = { record: string; message: string };
/** Where a run stands: the phase it is in and each phase's cursor, committed with the page it follows. */
export type ImportState = {
  phase: string;
  cursors: Record<string, string | null>;
  /** The source's own totals per phase (verification compares the counts against them). */
  totals: Record<string, number>;
  /** Records read per phase, and whether the run started from the beginning (only then are they checked against the totals). */
  seen?: Record<string, number>;
  fresh?: boolean;
};

/** One run of an import. A re-run is a new row that starts from the newest finished run's cursors. */
export const importsTable = table(
  "imports",
  {
    id: id(),
    workspaceId: workspaceId(),
    source: text("source", { enum: IMPORT_SOURCES }).notNull(),
    /** The account at the source (a Zendesk subdomain; the kind for CSV): re-runs of one account share mappings. */
    account: text("account").notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull().default("queued"),
    phase: text("phase").notNull().default("queued"),
    done: integer("done").notNull().default(0),
    total: integer("total"),
    counts: json<ImportCounts>("counts").notNull(),
    errors: json<ImportError[]>("errors").notNull().default([]),
    /** The credentials, sealed with deps.secrets; removed when the run ends. */
    optionsSealed: text("options_sealed"),
    state: json<ImportState>("state").notNull(),
    /** Whoever is running the steps (the job or the CLI) holds the run until then. */
    leaseUntil: timestamp("lease_until"),
    /** `job` or `cli`: the job runner already runs one job at a time, so a job takes over a job's lease at once. */
    leaseHolder: text("lease_holder"),
    createdBy: text("created_by"),
    startedAt: timestamp("started_at"),
    finishedAt: timestamp("finished_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("imports_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
    index("imports_account_idx").on(t.workspaceId, t.source, t.account, t.status),
  ],
);

/**
 * Which Desk record each imported record became: a re-run finds it here, so it updates what
 * changed (source_updated_at moved) and creates only what is new.
 */
export const importMappingsTable = table(
  "import_mappings",
  {
    workspaceId: workspaceId(),
    source: text("source", { enum: IMPORT_SOURCES }).notNull(),
    account: text("account").notNull(),
    /** user, contact, company, ticket, message, attachment */
    kind: text("kind").notNull(),
    sourceId: text("source_id").notNull(),
    deskId: text("desk_id").notNull(),
    sourceUpdatedAt: text("source_updated_at"),
    /** What later records need of this one (a user's email, name and whether they are an agent). */
    data: json<Record<string, unknown>>("data"),
  },
  (t) => [primaryKey(t.workspaceId, t.source, t.account, t.kind, t.sourceId)],
);
