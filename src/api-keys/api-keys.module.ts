import { keyLookups } from "../auth/auth.ports";
import { apiKeyCallerOf } from "../identity/identity.public";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { liveKeyScopesLookup } from "../realtime/realtime.ports";
import { apiKeyCaller } from "./api-keys.callers";
import { apiKeysRoutes } from "./api-keys.routes";
import { apiKeyLookups } from "./api-keys.public";

export const apiKeysModule = defineModule({
  name: "api-keys",
  routes: (deps) => [apiKeysRoutes(deps)],
  provides: [
    provide(keyLookups, (db) => {
      const keys = apiKeyLookups(db);
      return { keyByHash: keys.keyByHash, touchKey: keys.touchKey };
    }),
    provide(liveKeyScopesLookup, (db) => apiKeyLookups(db).liveKeyScopes),
    provide(apiKeyCallerOf, apiKeyCaller),
  ],
});
