import { defineModule } from "../module";
import type { ContactChannelsOf, ContactForm } from "./help-center.contact";
import type { Deps } from "../deps";
import { helpCenterPages } from "./help-center.pages";
import { helpCenterPreviewRoutes } from "./help-center.preview.routes";
import { helpCenterRoutes } from "./help-center.routes";

/** The help center; `contactChannels` (the widget and the default mailbox, lent by the registry) gives its pages "Contact us". */
export function helpCenterModule(
  seams: { contactChannels?: ContactChannelsOf; contactForm?: (deps: Deps) => ContactForm } = {},
) {
  return defineModule({
    name: "help-center",
    routes: (deps) => [helpCenterRoutes(deps), helpCenterPreviewRoutes(deps)],
    pages: (deps) => helpCenterPages(deps, seams.contactChannels, seams.contactForm?.(deps)),
  });
}
