/** What other features may use of pictures: copying a contact's picture from a URL (a person's: identity's ports). */
export { copyContactPictureFromUrl } from "./pictures.auto";
