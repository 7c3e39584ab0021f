/** The two news screens as one lazy chunk (one entry in the first screen's preload map). */
export { MoreNewsPage } from './more-news';
export { DetailsPage } from './details-page';
