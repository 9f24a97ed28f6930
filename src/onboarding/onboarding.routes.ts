import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { NoContent } from "../http/schemas";
import { OnboardingSchema } from "./onboarding.schemas";
import { dismissOnboarding, onboardingOf, type OnboardingProbes } from "./onboarding.service";

export function onboardingRoutes(deps: Deps, probes: OnboardingProbes) {
  return new Elysia({ prefix: "/onboarding", tags: ["onboarding"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => await onboardingOf(deps.db, ctx, probes), {
      access: { role: "viewer", scopes: ["settings:read"] },
      response: { 200: OnboardingSchema },
      detail: {
        summary: "The setup checklist, computed from the workspace as it is",
        description:
          "Each step is done when the workspace shows it (a mailbox exists, a second member or an invitation, the caller's own photo, auto-triage on, a label exists; the widget, article and assistant steps once those features are used). `requires` is the least role that can do a step; `dismissed` is per person.",
      },
    })
    .post(
      "/dismiss",
      async ({ ctx, set }) => {
        await dismissOnboarding(ctx, deps);
        set.status = 204;
        return null;
      },
      {
        access: { role: "viewer", keys: false },
        response: { 204: NoContent },
        detail: { summary: "Hide the setup checklist for the caller (204; idempotent)" },
      },
    );
}
