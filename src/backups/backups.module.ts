import { defineModule } from "../module";
import { manualBackupJob, scheduledBackupJob } from "./backups.runs";

/** Scheduled backups (DESK_BACKUP_INTERVAL) and the ones asked for on the System page; `desk backup` is the CLI. */
export const backupsModule = defineModule({
  name: "backups",
  jobs: [scheduledBackupJob, manualBackupJob],
});
