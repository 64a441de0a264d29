/**
 * Everything the HTML pages need beyond the routes: the page builders, the Eta templates, the
 * translations (i18next), the style sheet and the player script. The routes load this module
 * with the first page they serve (routes/browse-routes.ts, browseKit), so a server that only
 * answers JSON never holds it (about 2 MB of heap).
 */
export { chooseUiLang } from './i18n.js';
export { databasePage, errorPage, homePage, recordPage, tablePage } from './pages.js';
export { PLAYER_JS } from './player.js';
export { BROWSE_CSS } from './style.js';
export { renderPage } from './views.js';
