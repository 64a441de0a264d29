/**
 * The browse pages' own stylesheet: small, no external fonts or assets, colours with at least
 * 4.5:1 contrast (axe checks it in the browser tests). Lists are a table on wide screens and
 * stacked cards under 1100 px (each cell with its field name, from `data-label`), so a phone at
 * 390 px never scrolls sideways; a record with a recording shows the player beside its
 * transcript on wide screens, above it on narrow ones.
 */
export const BROWSE_CSS = `
:root { --ink: #1d2430; --muted: #4f5b6b; --line: #d5dbe3; --accent: #1f5fa8; --bg: #fbfaf7; --mark: #ffe36e; --panel: #ffffff; --warn-bg: #fff4d6; --warn-ink: #5b3a00; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, video:focus-visible { outline: 3px solid #f0a500; outline-offset: 1px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .4rem .8rem; z-index: 2; }
.skip:focus { left: .5rem; }
.visually-hidden { position: absolute; left: 0; top: 0; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { background: #16324f; color: #fff; padding: .6rem 1.2rem; display: flex; gap: .4rem 1.2rem; align-items: baseline; flex-wrap: wrap; }
header.top a { color: #fff; }
header.top .brand { font-weight: 700; text-decoration: none; font-size: 1.05rem; }
nav.crumbs { font-size: .95rem; min-width: 0; }
nav.crumbs ol { list-style: none; display: flex; gap: .4rem; margin: 0; padding: 0; flex-wrap: wrap; }
nav.crumbs li + li::before { content: "/"; margin-right: .4rem; color: #c9d6e6; }
nav.ui-langs { margin-left: auto; display: flex; gap: .7rem; font-size: .9rem; }
nav.ui-langs a[aria-current] { font-weight: 700; text-decoration: none; border-bottom: 2px solid #f0a500; }
main { padding: 1rem 1.2rem 3rem; max-width: 1400px; margin: 0 auto; }
footer.bottom { padding: 1rem 1.2rem 2rem; max-width: 1400px; margin: 0 auto; font-size: .9rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: .4rem 0 .8rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.2rem 0 .5rem; }
.panel > h2:first-child { margin-top: 0; }
h1 .subtitle { font-size: 1rem; font-weight: 400; color: var(--muted); white-space: nowrap; }
.muted { color: var(--muted); }
.small { font-size: .9rem; }
.lead { font-size: 1.05rem; max-width: 50rem; }
.notice { background: var(--warn-bg); color: var(--warn-ink); border-radius: 6px; padding: .5rem .8rem; }
.notice a { color: #4a2f00; font-weight: 600; }
.fallback { display: inline-block; font-size: .75rem; font-weight: 600; color: var(--warn-ink); background: var(--warn-bg); border: 1px solid #e0c27a; border-radius: 3px; padding: 0 .35rem; vertical-align: .1em; }
ul.cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: .8rem; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; display: flex; flex-direction: column; gap: .2rem; }
.card a { font-weight: 600; font-size: 1.05rem; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 250px; gap: 1.2rem; align-items: start; }
.layout > * { min-width: 0; }
@media (max-width: 900px) { .layout { grid-template-columns: minmax(0, 1fr); } }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; }
form.search { display: flex; gap: .5rem; flex-wrap: wrap; align-items: end; margin-bottom: .8rem; }
form.search .grow { flex: 1 1 14rem; }
form.search .grow input { width: 100%; }
label { font-size: .85rem; color: var(--muted); display: block; }
input, select, button { font: inherit; padding: .35rem .5rem; border: 1px solid #8792a2; border-radius: 4px; background: #fff; color: var(--ink); max-width: 100%; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
details.filters { margin-bottom: .8rem; }
details.filters summary { cursor: pointer; font-weight: 600; }
.filter-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: .5rem 1rem; margin: .6rem 0; }
.filter-grid fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; min-width: 0; }
.filter-grid select { flex: 0 1 auto; max-width: 48%; }
.filter-grid legend { font-size: .85rem; color: var(--muted); padding: 0; width: 100%; }
.filter-grid input { flex: 1 1 6rem; min-width: 0; width: 100%; }
.table-wrap { position: relative; overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
table.rows { border-collapse: collapse; width: 100%; font-size: .92rem; }
table.rows th, table.rows td { text-align: left; vertical-align: top; padding: .45rem .55rem; border-bottom: 1px solid var(--line); }
table.rows th { background: #eef2f7; position: sticky; top: 0; }
table.rows th a { text-decoration: none; color: var(--ink); }
table.rows th a:hover { text-decoration: underline; }
table.rows tbody tr:hover { background: #f4f7fb; }
td.long { min-width: 12rem; max-width: 24rem; }
.clamp { display: -webkit-box; -webkit-line-clamp: 3; line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
table.rows td { max-width: 28rem; }
div.wide { min-width: 20rem; }
.in-field { font-size: .8rem; font-weight: 600; color: var(--muted); }
.pictures { display: inline-flex; gap: .3rem; flex-wrap: nowrap; vertical-align: top; }
.pictures a { flex: none; }
.pictures img { width: 3.6rem; height: 2.4rem; object-fit: cover; border-radius: 3px; border: 1px solid var(--line); display: block; }
img.picture { max-width: 100%; height: auto; max-height: 16rem; border-radius: 4px; }
@media (max-width: 1100px) {
  .table-wrap { border: 0; background: none; overflow: visible; }
  table.rows, table.rows tbody, table.rows tr, table.rows td { display: block; width: 100%; max-width: none; }
  table.rows thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.rows tr { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; margin-bottom: .8rem; padding: .4rem .2rem; }
  table.rows td { border: 0; padding: .2rem .6rem; display: grid; grid-template-columns: 7.5rem minmax(0, 1fr); gap: .6rem; min-width: 0; }
  table.rows td::before { content: attr(data-label); font-size: .8rem; font-weight: 600; color: var(--muted); }
  table.rows td.empty { display: none; }
  table.rows td.none { display: block; }
  td.long, div.wide { min-width: 0; }
  td.found { grid-template-columns: minmax(0, 1fr); }
}
.null { color: var(--muted); }
mark { background: var(--mark); color: inherit; padding: 0 .1em; }
.pager { display: flex; gap: 1rem; align-items: center; margin: .8rem 0; flex-wrap: wrap; }
.exports { font-size: .9rem; }
.facet h3 { font-size: .95rem; margin: .8rem 0 .3rem; }
.facet ul { list-style: none; margin: 0; padding: 0; font-size: .9rem; }
.facet li { display: flex; justify-content: space-between; gap: .5rem; }
.facet .count { color: var(--muted); font-variant-numeric: tabular-nums; }
.facet .active { font-weight: 700; }
.error { background: #fdecec; border: 1px solid #d9534f; color: #7a1c1a; padding: .6rem .8rem; border-radius: 6px; margin-bottom: .8rem; overflow-wrap: anywhere; }
.back { margin: .2rem 0; }
.lang-switch { display: flex; gap: .3rem .8rem; flex-wrap: wrap; align-items: baseline; margin-bottom: 1rem; }
.lang-switch a[aria-current] { font-weight: 700; text-decoration: none; color: var(--ink); }
.record-body.with-player { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem 1.5rem; align-items: start; }
.record-body.with-player > dl.record { grid-column: 1 / -1; }
.player video { width: 100%; max-height: 70vh; background: #000; border-radius: 6px; display: block; }
.transcript-panel h2 { margin-top: 0; }
@media (max-width: 900px) { .record-body.with-player { grid-template-columns: minmax(0, 1fr); } }
dl.record { display: grid; grid-template-columns: minmax(8rem, 13rem) minmax(0, 1fr); gap: .5rem 1rem; margin: 0; }
dl.record .field { display: contents; }
dl.record dt { font-weight: 600; color: var(--muted); }
dl.record dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 600px) { dl.record { grid-template-columns: minmax(0, 1fr); gap: .1rem; } dl.record dd { margin-bottom: .7rem; } }
pre.json { white-space: pre-wrap; margin: 0; font-size: .85rem; }
.transcript { max-height: 32rem; overflow-y: auto; border-left: 3px solid var(--line); padding-left: .8rem; }
.transcript p { margin: 0 0 .6rem; }
.tc { font: .8rem/1 ui-monospace, monospace; color: #0d5a3a; background: #e3f4ea; border-radius: 3px; padding: .1rem .3rem; margin-right: .3rem; }
a.tc { text-decoration: none; }
a.tc[aria-current] { background: #0d5a3a; color: #fff; }
.page { font-size: .8rem; color: #5b3a00; background: #fbecd0; border-radius: 3px; padding: .1rem .3rem; margin-right: .3rem; }
.speaker { margin-right: .3rem; }
`;
