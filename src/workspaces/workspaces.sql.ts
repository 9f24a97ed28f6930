/**
 * `JOIN workspaces <alias> ON <alias>.id = <workspaceIdColumn> AND <alias>.deleted_at IS NULL`: keeps
 * a neighbour's rows of live workspaces only, in its prepared SQL, as if written out there.
 */
export const liveWorkspaceJoinSql = (workspaceIdColumn: string, alias = "w"): string =>
  `JOIN workspaces ${alias} ON ${alias}.id = ${workspaceIdColumn} AND ${alias}.deleted_at IS NULL`;

/**
 * `JOIN workspaces <alias> ON <alias>.id = <workspaceIdColumn>`: a neighbour's row with its workspace
 * (`<alias>.name`, `<alias>.slug`), deleted or not, in its prepared SQL.
 */
export const workspaceJoinSql = (workspaceIdColumn: string, alias = "w"): string =>
  `JOIN workspaces ${alias} ON ${alias}.id = ${workspaceIdColumn}`;
