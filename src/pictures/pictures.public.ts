/** What other features may use of pictures: copying a person's picture from a URL (PATCH /v1/me). */
export { copyPictureFromUrl, copyProviderPicture } from "./pictures.auto";
