import { z } from "zod";

export const BackupRunSchema = z.object({
  id: z.string(),
  trigger: z.enum(["schedule", "manual"]),
  status: z.enum(["running", "succeeded", "failed"]),
  file: z.string(),
  size_bytes: z.number().int().nullable(),
  file_count: z.number().int().nullable(),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  pruned_at: z.string().nullable().describe("when retention deleted the archive"),
});

export const SystemSchema = z.object({
  version: z.string(),
  operator: z
    .boolean()
    .describe(
      "whether the caller sees the instance section (who set up this Desk, and the admins of their workspaces)",
    ),
  instance: z
    .object({
      started_at: z.string(),
      uptime_seconds: z.number().int(),
      data_dir: z.string(),
      database_bytes: z.number().int(),
      wal_bytes: z.number().int(),
      free_disk_bytes: z.number().int(),
      jobs: z.object({
        queued: z.number().int(),
        due: z.number().int(),
        running: z.number().int(),
        failed_24h: z.number().int(),
        oldest_due_seconds: z.number().int(),
      }),
      consumers: z
        .array(
          z.object({
            name: z.string(),
            events_behind: z.number().int(),
            seconds_behind: z.number().int(),
          }),
        )
        .describe("each durable consumer's lag: stored events after its cursor, and how long the oldest has waited"),
      backups: z.object({
        interval_seconds: z.number().int().nullable().describe("DESK_BACKUP_INTERVAL; null when off"),
        keep: z.number().int(),
        dir: z.string(),
        runs: z.array(BackupRunSchema),
      }),
    })
    .nullable()
    .describe("instance-wide state; null unless the caller is the operator"),
  mailboxes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      status: z.enum(["active", "error", "disabled"]),
      last_error: z.string(),
      last_synced_at: z.string().nullable(),
    }),
  ),
  recent_errors: z.array(
    z.object({ source: z.enum(["job", "mailbox"]), kind: z.string(), error: z.string(), at: z.string() }),
  ),
});
export type SystemWire = z.infer<typeof SystemSchema>;
