/**
 * The news feature's public entry (lint `boundaries/imports` refuses other features' imports of
 * its other files): `NewsSection`, the newest published items (or one instrument's, `symbol`),
 * `count` of them, as rows that open the article. Other screens load it lazily, so it stays in a
 * chunk of its own.
 */
export { default as NewsSection } from './components/news-section';
