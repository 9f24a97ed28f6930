/** The command line of `desk migrate-to`, for desk's usage text (kept apart so `desk serve` loads none of the command). */
export const MIGRATE_TO_USAGE = "migrate-to <postgres://…> | migrate-to sqlite:///<dir> --from <postgres://…>";
