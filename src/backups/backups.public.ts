// What other features use of backups: the runs Desk took itself, and asking for one now.
export { recentBackupRuns } from "./backups.runs";
export { requestBackup } from "./backups.request";
