/**
 * What other features may use of attachments: storing files, linking uploads to a message, reading
 * and presenting a message's files, and the files a workspace purge removes. The table and its
 * queries stay inside this folder.
 */
export {
  attachToMessage,
  attachmentFilePath,
  attachmentFilesOf,
  attachmentLinks,
  attachmentsOfMessages,
  findAttachment,
  presentAttachment,
  storeAttachmentAsync,
  type AttachmentJson,
  type AttachmentLinks,
} from "./attachments.service";
export type { AttachmentRow } from "./attachments.table";
export { AttachmentSchema } from "./attachments.schemas";
