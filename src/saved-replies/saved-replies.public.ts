/** What other features may use of saved replies: creating one (the assistant's approved proposals). */
export { createSavedReply, presentSavedReply } from "./saved-replies.service";
