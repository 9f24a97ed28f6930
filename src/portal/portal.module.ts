import { contactForm } from "../help-center/help-center.public";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { portalConfirmationJob, portalLinkMailJob } from "./portal.jobs";
import { contactFormHandler, portalPages } from "./portal.pages";

/** The customer portal (`/portal/{slug}`) and the mails of its sign-in links and of the contact form. */
export const portalModule = defineModule({
  name: "portal",
  pages: (deps) => portalPages(deps),
  jobs: [portalLinkMailJob, portalConfirmationJob],
  // The help center serves the contact form at /help/{slug}/contact.
  provides: [provide(contactForm, contactFormHandler)],
});
