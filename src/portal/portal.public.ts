/** What others may use of the portal: the contact form the help center serves at /help/{slug}/contact. */
export { contactFormHandler } from "./portal.pages";
