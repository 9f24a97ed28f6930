import { membershipLookups } from "../auth/auth.ports";
import { onEvent } from "../events/bus";
import { eventWorkspaceCheck } from "../events/seq-counter";
import { labelCreationSetting } from "../labels/labels.public";
import { provide } from "../lib/ports";
import { storedSeqs } from "../realtime/realtime.ports";
import { ticketNumberCounter } from "../tickets/tickets.public";
import { workspaceSettingsReader } from "../outbound/outbound.public";
import { storedSeqsLookup, workspaceExistsSql } from "./workspaces.event-seqs";
import { labelCreationOf } from "./workspaces.label-creation";
import { takeTicketNumber } from "./workspaces.ticket-numbers";
import { defineModule } from "../module";
import { workspaceEvents } from "./workspaces.events";
import { purgeWorkspaceJob } from "./workspaces.jobs";
import { memberRoleLookup, membershipsOf, ssoOnlyWorkspacesLookup } from "./workspaces.memberships";
import { workspacesRoutes } from "./workspaces.routes";
import { workspaceSettingsOf } from "./workspaces.service";

export const workspacesModule = defineModule({
  name: "workspaces",
  events: workspaceEvents,
  routes: (deps) => [workspacesRoutes(deps)],
  jobs: [purgeWorkspaceJob],
  // A change here may change someone's role or private teams, which the credential cache holds.
  inTransaction: (deps) => void onEvent(deps.db, workspaceEvents, (tx) => deps.credentials.membershipsChanged(tx)),
  provides: [
    provide(membershipLookups, (db) => ({
      memberRole: memberRoleLookup(db),
      workspacesOf: (userId) => membershipsOf(db, userId),
      ssoOnlyWorkspaces: ssoOnlyWorkspacesLookup(db),
    })),
    provide(storedSeqs, storedSeqsLookup),
    provide(eventWorkspaceCheck, workspaceExistsSql),
    provide(ticketNumberCounter, takeTicketNumber),
    provide(labelCreationSetting, labelCreationOf),
    provide(workspaceSettingsReader, async (db, workspaceId) => (await workspaceSettingsOf(db, workspaceId))?.settings),
  ],
});
