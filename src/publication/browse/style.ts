/**
 * The browse pages' own stylesheet: small, no external fonts or assets, readable on a phone,
 * colours with at least 4.5:1 contrast (axe checks it in the browser tests).
 */
export const BROWSE_CSS = `
:root { --ink: #1d2430; --muted: #4f5b6b; --line: #d5dbe3; --accent: #1f5fa8; --bg: #fbfaf7; --mark: #ffe36e; --panel: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f0a500; outline-offset: 1px; }
header.top { background: #16324f; color: #fff; padding: .6rem 1.2rem; display: flex; gap: 1.2rem; align-items: baseline; flex-wrap: wrap; }
header.top a { color: #fff; }
header.top .brand { font-weight: 700; text-decoration: none; }
nav.crumbs { font-size: .95rem; }
nav.crumbs ol { list-style: none; display: flex; gap: .4rem; margin: 0; padding: 0; flex-wrap: wrap; }
nav.crumbs li + li::before { content: "/"; margin-right: .4rem; color: #c9d6e6; }
main { padding: 1rem 1.2rem 3rem; max-width: 1400px; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: .4rem 0 .8rem; }
h2 { font-size: 1.15rem; margin: 1.2rem 0 .5rem; }
.panel > h2:first-child, .variant > h2:first-child { margin-top: 0; }
h1 .subtitle { font-size: 1rem; font-weight: 400; color: var(--muted); }
caption { text-align: left; padding: .4rem .55rem; }
.muted { color: var(--muted); }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 250px; gap: 1.2rem; align-items: start; }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; }
form.search { display: flex; gap: .5rem; flex-wrap: wrap; align-items: end; margin-bottom: .8rem; }
label { font-size: .85rem; color: var(--muted); display: block; }
input, select, button { font: inherit; padding: .3rem .45rem; border: 1px solid #8792a2; border-radius: 4px; background: #fff; color: var(--ink); }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
details.filters { margin-bottom: .8rem; }
details.filters summary { cursor: pointer; font-weight: 600; }
.filter-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: .5rem 1rem; margin: .6rem 0; }
.filter-grid fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; min-width: 0; }
.filter-grid select { flex: 0 1 auto; max-width: 48%; }
.filter-grid legend { font-size: .85rem; color: var(--muted); padding: 0; width: 100%; }
.filter-grid input { flex: 1 1 6rem; min-width: 0; width: 100%; }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
table.rows { border-collapse: collapse; width: 100%; font-size: .9rem; }
table.rows th, table.rows td { text-align: left; vertical-align: top; padding: .4rem .55rem; border-bottom: 1px solid var(--line); }
table.rows th { background: #eef2f7; white-space: nowrap; position: sticky; top: 0; }
table.rows th a { text-decoration: none; color: var(--ink); }
table.rows th a:hover { text-decoration: underline; }
table.rows tbody tr:hover { background: #f4f7fb; }
td.long { min-width: 14rem; max-width: 26rem; }
.clamp { display: -webkit-box; -webkit-line-clamp: 3; line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
table.rows td { max-width: 28rem; }
div.wide { min-width: 22rem; }
.null { color: var(--muted); }
mark { background: var(--mark); color: inherit; padding: 0 .1em; }
.pager { display: flex; gap: 1rem; align-items: center; margin: .8rem 0; flex-wrap: wrap; }
.exports { font-size: .9rem; }
.facet h3 { font-size: .95rem; margin: .8rem 0 .3rem; }
.facet ul { list-style: none; margin: 0; padding: 0; font-size: .9rem; }
.facet li { display: flex; justify-content: space-between; gap: .5rem; }
.facet .count { color: var(--muted); font-variant-numeric: tabular-nums; }
.facet .active { font-weight: 700; }
.error { background: #fdecec; border: 1px solid #d9534f; color: #7a1c1a; padding: .6rem .8rem; border-radius: 6px; margin-bottom: .8rem; }
.variant { margin-bottom: 1.6rem; }
dl.record { display: grid; grid-template-columns: minmax(8rem, 12rem) minmax(0, 1fr); gap: .35rem 1rem; margin: 0; }
dl.record dt { font-weight: 600; color: var(--muted); }
dl.record dd { margin: 0; overflow-wrap: anywhere; }
pre.json { white-space: pre-wrap; margin: 0; font-size: .85rem; }
.transcript { max-height: 36rem; overflow-y: auto; border-left: 3px solid var(--line); padding-left: .8rem; }
.transcript p { margin: 0 0 .6rem; }
.tc { font: .8rem/1 ui-monospace, monospace; color: #0d5a3a; background: #e3f4ea; border-radius: 3px; padding: .1rem .3rem; margin-right: .3rem; }
.page { font-size: .8rem; color: #5b3a00; background: #fbecd0; border-radius: 3px; padding: .1rem .3rem; margin-right: .3rem; }
.speaker { margin-right: .3rem; }
ul.plain { padding-left: 1.2rem; }
.lang-switch { display: flex; gap: .6rem; flex-wrap: wrap; margin-bottom: 1rem; }
`;
