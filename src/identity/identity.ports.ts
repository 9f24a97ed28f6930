import type { Queryable } from "../db/database";
import type { Deps } from "../deps";
import { definePort } from "../lib/ports";

/** Starts copying the picture at `url` for the person (a job); throws a 422 for a URL it will never fetch. */
export type PictureFromUrl = (deps: Deps, userId: string, url: string) => void | Promise<void>;

/** PATCH /v1/me { avatar_url }: the pictures feature, above this one, copies the picture. */
export const pictureFromUrl = definePort<PictureFromUrl>("identity.pictureFromUrl");

/** Copies a sign-in provider's picture for a person without one; a URL the guard would refuse is ignored. */
export type ProviderPicture = (deps: Pick<Deps, "db" | "config">, userId: string, url: string) => void | Promise<void>;

/** Single sign-on: the pictures feature, above this one, copies the provider's picture. */
export const providerPicture = definePort<ProviderPicture>("identity.providerPicture");

/** An API key as GET /v1/me answers for it: the key, its workspace and who created it. */
export type ApiKeyCaller = {
  id: string;
  name: string;
  workspace: { id: string; name: string; slug: string };
  createdBy: string | null;
};

/** GET /v1/me for an API key: the api-keys feature, above this one, reads the key and its workspace. */
export const apiKeyCallerOf =
  definePort<(db: Queryable, keyId: string) => (ApiKeyCaller | undefined) | Promise<ApiKeyCaller | undefined>>(
    "identity.apiKeyCallerOf",
  );
