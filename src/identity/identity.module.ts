import { sessionsById } from "../auth/auth.ports";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { userNameLookup } from "../realtime/realtime.ports";
import { authRoutes } from "./auth.routes";
import { apiKeyCallerOf, pictureFromUrl, providerPicture } from "./identity.ports";
import { instanceRoutes } from "./instance.routes";
import { meRoutes } from "./me.routes";
import { myPasskeysRoutes, passkeySignInRoutes } from "./passkeys.routes";
import { passwordResetMailJob } from "./password-resets.mail";
import { passwordResetsRoutes } from "./password-resets.routes";
import { ssoLinkMailJob } from "./sso.mail";
import { sessionLookup } from "./sessions";
import { ssoRoutes } from "./sso.routes";
import { userNames } from "./users.store";

/** People, their sessions and every way to sign in: password, passkeys, single sign-on, resets. */
export const identityModule = defineModule({
  name: "identity",
  ports: [pictureFromUrl, providerPicture, apiKeyCallerOf],
  routes: (deps) => [
    ...authRoutes(deps),
    instanceRoutes(deps),
    meRoutes(deps),
    myPasskeysRoutes(deps),
    passkeySignInRoutes(deps),
    ssoRoutes(deps),
    passwordResetsRoutes(deps),
  ],
  jobs: [passwordResetMailJob, ssoLinkMailJob],
  provides: [provide(sessionsById, sessionLookup), provide(userNameLookup, userNames)],
});
