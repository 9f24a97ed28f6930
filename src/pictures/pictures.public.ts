/** What other features may use of pictures: copying a person's or a contact's picture from a URL. */
export { copyContactPictureFromUrl, copyPictureFromUrl, copyProviderPicture } from "./pictures.auto";
