import { defineModule } from "../module";
import { myPasskeysRoutes, passkeySignInRoutes } from "./passkeys.routes";

export const passkeysModule = defineModule({
  name: "passkeys",
  routes: (deps) => [myPasskeysRoutes(deps), passkeySignInRoutes(deps)],
});
