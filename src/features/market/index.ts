/**
 * The market feature's public entry (lint `boundaries/imports` refuses other features' imports of
 * its other files): `WatchToggle`, the watchlist star of one instrument (adds it to or removes it
 * from the member's watchlist; asks a logged-out reader to log in).
 */
export { WatchToggle } from './components/watch-toggle';
