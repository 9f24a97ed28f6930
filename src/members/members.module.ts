import { defineModule } from "../module";
import { memberEvents } from "./members.events";
import type { MemberLeft } from "./members.service";
import { membersRoutes } from "./members.routes";

/** `memberLeft` clears what other features keep per member (team seats); the registry wires it. */
export const membersModule = (cascade: { memberLeft: MemberLeft }) =>
  defineModule({ name: "members", events: memberEvents, routes: (deps) => [membersRoutes(deps, cascade)] });
