/** What other features may use of attachments. */
export { attachmentFilesOf } from "./attachments.service";
