import { provide } from "../lib/ports";
import { pictureFromUrl, providerPicture } from "../identity/identity.public";
import { defineModule } from "../module";
import {
  companyPictureJob,
  contactPictureJob,
  contactUrlPictureJob,
  copyPictureFromUrl,
  copyProviderPicture,
  lookUpCompanyPictures,
  lookUpContactPictures,
  userPictureJob,
} from "./pictures.auto";
import { pictureRefreshRoutes } from "./pictures.auto.routes";
import { picturesRoutes } from "./pictures.routes";

export const picturesModule = defineModule({
  name: "pictures",
  routes: (deps) => [picturesRoutes(deps), pictureRefreshRoutes(deps)],
  jobs: [contactPictureJob, companyPictureJob, userPictureJob, contactUrlPictureJob],
  consumers: [lookUpContactPictures, lookUpCompanyPictures],
  provides: [provide(pictureFromUrl, copyPictureFromUrl), provide(providerPicture, copyProviderPicture)],
});
