import { defineModule } from "../module";
import { type PictureFromUrl, meRoutes } from "./me.routes";

/** `pictureFromUrl` copies a picture from a URL (PATCH /v1/me { avatar_url }); the registry wires the pictures feature's. */
export const meModule = (seams: { pictureFromUrl: PictureFromUrl }) =>
  defineModule({ name: "me", routes: (deps) => [meRoutes(deps, seams)] });
