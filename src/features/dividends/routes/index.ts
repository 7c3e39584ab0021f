/** The three dividend screens as one lazy chunk (one entry in the first screen's preload map). */
export { DividendCalendarPage } from './dividend';
export { DividendStocksPage } from './dividend2';
export { DividendHistoryPage } from './dividend3';
