/** What other features may use of attachments. */
export {
  attachToMessage,
  attachmentBytes,
  attachmentFilePath,
  attachmentLinks,
  attachmentsOfMessages,
  discardAttachments,
  findAttachment,
  presentAttachment,
  removeAttachmentFilesOf,
  storeAttachmentAsync,
  type AttachmentJson,
  type AttachmentLinks,
} from "./attachments.service";
export type { AttachmentRow } from "./attachments.table";
export { AttachmentSchema } from "./attachments.schemas";
