/** What other features may use of attachments. */
export {
  attachmentFilesOf,
  attachToMessage,
  attachmentFilePath,
  attachmentLinks,
  attachmentsOfMessages,
  discardAttachments,
  findAttachment,
  presentAttachment,
  storeAttachmentAsync,
  type AttachmentJson,
  type AttachmentLinks,
} from "./attachments.service";
export type { AttachmentRow } from "./attachments.table";
export { AttachmentSchema } from "./attachments.schemas";
