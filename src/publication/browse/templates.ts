/**
 * The Eta templates of the browse pages, kept as strings in code so the build carries them
 * (tsc copies no other files). `<%= %>` escapes; `<%~ %>` (raw) is used only for HTML this
 * server produced itself: the rendered page body in the layout, and highlighted excerpts and
 * transcriptions, which text/highlight.ts builds by escaping every piece of stored text. Every
 * word a reader sees comes from `it.t` (i18n.ts).
 */

/** A fallback mark: the value is in another language than the page's. */
const fallback = `<% if (it.mark) { %> <span class="fallback" title="<%= it.mark.title %>"><%= it.mark.text %></span><% } %>`;

const cell = `<% const c = it.cell; const t = it.t; %>
<% if (c.kind === 'null') { %><span class="null"><span aria-hidden="true">—</span><span class="visually-hidden"><%= t('empty') %></span></span>
<% } else if (c.kind === 'links') { %><% if (c.pictures.length > 0) { %><span class="pictures"><% for (const p of c.pictures) { %><a href="<%= p.href %>"><img src="<%= p.src %>" alt="<%= p.alt %>" loading="lazy"></a><% } %></span><% } %><% c.links.forEach((l, i) => { %><%= i ? ', ' : '' %><a href="<%= l.href %>"<% if (l.fallback && l.fallback.htmlLang) { %> lang="<%= l.fallback.htmlLang %>"<% } %>><%= l.label %></a><% if (l.fallback) { %> <span class="fallback"><%= t('fallbackMark', { lang: l.fallback.name }) %></span><% } %><% }) %><% if (c.more > 0) { %> <span class="muted"><%= t('moreLinks', { count: c.more }) %></span><% } %>
<% } else if (c.kind === 'picture') { %><a href="<%= c.picture.src %>"><img class="picture" src="<%= c.picture.src %>" alt="<%= c.picture.alt %>" loading="lazy"></a>
<% } else if (c.kind === 'video') { %><a href="<%= c.src %>">▶ <%= t('video') %></a>
<% } else if (c.kind === 'json') { %><pre class="json"><%= c.text %></pre>
<% } else if (c.kind === 'html') { %><%~ c.html %>
<% } else if (c.kind === 'transcript') { %><div class="transcript"><% for (const para of c.paragraphs) { %><p><% for (const p of para) { %><% if (p.kind === 'tc') { %><% if (c.video) { %><a class="tc" href="<%= c.video %>#t=<%= p.seconds %>" data-seconds="<%= p.seconds %>" title="<%= t('playFrom', { time: p.label }) %>"><%= p.label %></a><% } else { %><span class="tc" title="<%= t('timecode') %>"><%= p.label %></span><% } %><% } else if (p.kind === 'page') { %><span class="page" title="<%= t('page') %>"><%= t('pageShort', { label: p.label }) %></span><% } else if (p.kind === 'speaker') { %><strong class="speaker"><% if (p.href) { %><a href="<%= p.href %>"><%= p.label %></a><% } else { %><%= p.label %><% } %>:</strong><% } else { %><%~ p.html %><% } %><% } %></p><% } %></div>
<% } else { %><%= c.text %><% } %>`;

const layout = `<!doctype html>
<html lang="<%= it.lang %>">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.title %> · <%= it.t('brand') %></title>
<link rel="stylesheet" href="<%= it.base %>/style.css">
</head>
<body>
<a class="skip" href="#main"><%= it.t('skipToContent') %></a>
<header class="top">
<a class="brand" href="<%= it.homeHref %>"><%= it.t('brand') %></a>
<nav class="crumbs" aria-label="<%= it.t('breadcrumb') %>"><ol>
<% for (const c of it.crumbs) { %><li><% if (c.href) { %><a href="<%= c.href %>"><%= c.label %></a><% } else { %><span aria-current="page"><%= c.label %></span><% } %></li><% } %>
</ol></nav>
<nav class="ui-langs" aria-label="<%= it.t('interfaceLanguage') %>"><% for (const l of it.languages) { %><a href="<%= l.href %>" lang="<%= l.code %>" hreflang="<%= l.code %>"<%= l.current ? ' aria-current="true"' : '' %>><%= l.label %></a><% } %></nav>
</header>
<main id="main">
<%~ it.body %>
</main>
<footer class="bottom"><a href="<%= it.docsHref %>"><%= it.t('apiDocs') %></a></footer>
</body>
</html>`;

const home = `<% layout('@layout') %>
<h1><%= it.t('homeTitle') %></h1>
<p class="lead"><%= it.t('homeIntro') %></p>
<ul class="cards">
<% for (const d of it.databases) { %><li class="card"><a href="<%= d.href %>"><%= d.name %></a></li><% } %>
</ul>
<p class="muted"><%= it.t('homeApi') %> <a href="<%= it.apiHref %>"><%= it.t('homeApiIndex') %></a> · <a href="<%= it.docsHref %>"><%= it.t('homeApiDocs') %></a></p>`;

const database = `<% layout('@layout') %>
<h1><%= it.t('databaseTitle', { db: it.db }) %></h1>
<ul class="cards">
<% for (const tb of it.tables) { %><li class="card"><a href="<%= tb.href %>"><%= tb.label %></a><span class="muted"><%= tb.rows %></span></li><% } %>
</ul>
<p class="muted small"><%= it.t('estimatedCounts') %></p>`;

const table = `<% layout('@layout') %><% const t = it.t; %>
<h1><%= it.tableLabel %> <span class="subtitle"><%= it.summary %></span></h1>
<% if (it.error) { %><div class="error" role="alert"><strong><%= t('cannotShow') %></strong> <%= it.error.detail %><% if (it.error.errors.length > 1) { %><ul><% for (const e of it.error.errors) { %><li><%= e.name %>: <%= e.detail %></li><% } %></ul><% } %></div><% } %>
<div class="layout">
<div class="results">
<form class="search" method="get" action="<%= it.form.action %>">
<% if (it.form.searchColumns.length > 0) { %>
<div class="grow"><label for="q"><%= t('searchLabel') %></label><input id="q" name="q" type="search" value="<%= it.form.q %>" placeholder="<%= t('searchPlaceholder') %>"></div>
<% if (it.form.searchColumns.length > 1) { %><div><label for="column"><%= t('searchIn') %></label><select id="column" name="column"><option value=""><%= t('allTextFields') %></option><% for (const c of it.form.searchColumns) { %><option value="<%= c.value %>"<%= c.value === it.form.column ? ' selected' : '' %>><%= c.label %></option><% } %></select></div><% } %>
<% } %>
<% if (it.form.hasLang) { %><div><label for="lang"><%= t('recordLanguage') %></label><select id="lang" name="lang"><% for (const l of it.form.languages) { %><option value="<%= l.value %>"<%= l.value === it.form.lang ? ' selected' : '' %>><%= l.label %></option><% } %></select></div><% } %>
<div><label for="limit"><%= t('rowsPerPage') %></label><select id="limit" name="limit"><% for (const n of it.form.limits) { %><option<%= n === it.form.limit ? ' selected' : '' %>><%= n %></option><% } %></select></div>
<% if (it.form.sort) { %><input type="hidden" name="sort" value="<%= it.form.sort %>"><% } %>
<% if (it.form.ui) { %><input type="hidden" name="ui" value="<%= it.form.ui %>"><% } %>
<% for (const f of it.filters) { if (f.value !== '' || f.op === 'is_null' || f.op === 'is_not_null') { %><input type="hidden" name="op[<%= f.column %>]" value="<%= f.op %>"><input type="hidden" name="v[<%= f.column %>]" value="<%= f.value %>"><% } } %>
<button type="submit"><%= t('show') %></button>
</form>
<% if (it.langNotice) { %><p class="notice"><%= it.langNotice.text %> <a href="<%= it.langNotice.href %>"><%= it.langNotice.linkText %></a></p><% } %>
<% if (it.perColumn) { %><p class="muted small"><%= it.perColumn %></p><% } %>
<details class="filters"<%= it.filtersOpen ? ' open' : '' %>>
<summary><%= t('filterByColumn') %></summary>
<form method="get" action="<%= it.form.action %>">
<% if (it.form.q) { %><input type="hidden" name="q" value="<%= it.form.q %>"><input type="hidden" name="column" value="<%= it.form.column %>"><% } %>
<% if (it.form.lang) { %><input type="hidden" name="lang" value="<%= it.form.lang %>"><% } %>
<% if (it.form.sort) { %><input type="hidden" name="sort" value="<%= it.form.sort %>"><% } %>
<% if (it.form.ui) { %><input type="hidden" name="ui" value="<%= it.form.ui %>"><% } %>
<input type="hidden" name="limit" value="<%= it.form.limit %>">
<div class="filter-grid">
<% for (const f of it.filters) { %><fieldset><legend><%= f.label %></legend>
<select name="op[<%= f.column %>]" aria-label="<%= f.opLabel %>"><% for (const o of f.ops) { %><option value="<%= o.value %>"<%= o.value === f.op ? ' selected' : '' %>><%= o.label %></option><% } %></select>
<input name="v[<%= f.column %>]" value="<%= f.value %>" aria-label="<%= f.valueLabel %>"></fieldset>
<% } %>
</div>
<button type="submit"><%= t('applyFilters') %></button> <a href="<%= it.form.action %><%= it.form.ui ? '?ui=' + it.form.ui : '' %>"><%= t('clearAll') %></a>
</form>
</details>
<div class="pager">
<span><%= it.pager.label %></span>
<% if (it.pager.prevHref) { %><a rel="prev" href="<%= it.pager.prevHref %>"><%= t('previous') %></a><% } %>
<% if (it.pager.nextHref) { %><a rel="next" href="<%= it.pager.nextHref %>"><%= t('next') %></a><% } %>
</div>
<div class="table-wrap"><table class="rows">
<thead><tr>
<% for (const h of it.headers) { %><th scope="col" aria-sort="<%= h.ariaSort %>"><% if (h.href) { %><a href="<%= h.href %>" title="<%= h.title %>"><%= h.label %><%= h.arrow %></a><% } else { %><%= h.label %><% } %></th><% } %>
</tr></thead>
<tbody>
<% if (it.rows.length === 0) { %><tr><td colspan="<%= it.headers.length %>" class="muted none"><%= t('noRowsMatch') %></td></tr><% } %>
<% for (const r of it.rows) { %><tr<% if (r.lang) { %> lang="<%= r.lang %>"<% } %>>
<% r.cells.forEach((c, i) => { %><td data-label="<%= c.label %>" class="<%= c.name === 'fragments' ? 'found' : '' %><%= c.long ? ' long' : '' %><%= c.kind === 'null' ? ' empty' : '' %>"><% if (c.link && r.href) { %><a href="<%= r.href %>"><% if (c.kind === 'text') { %><%= c.text %><% } else { %><%~ include('@cell', { cell: c, t }) %><% } %></a><% } else if (c.wide) { %><div class="wide"><%~ include('@cell', { cell: c, t }) %></div><% } else if (c.long) { %><div class="clamp"><%~ include('@cell', { cell: c, t }) %></div><% } else { %><%~ include('@cell', { cell: c, t }) %><% } %></td><% }) %>
</tr><% } %>
</tbody></table></div>
<div class="pager">
<% if (it.pager.prevHref) { %><a rel="prev" href="<%= it.pager.prevHref %>"><%= t('previous') %></a><% } %>
<% if (it.pager.nextHref) { %><a rel="next" href="<%= it.pager.nextHref %>"><%= t('next') %></a><% } %>
<% if (it.exports.length > 0) { %><span class="exports"><%= t('download') %> <% it.exports.forEach((e, i) => { %><%= i ? ' · ' : '' %><a href="<%= e.href %>"><%= e.label %></a><% }) %></span><% } else if (it.form.q) { %><span class="exports muted"><%= t('downloadOneField') %></span><% } %>
</div>
</div>
<aside class="panel facet" aria-label="<%= t('facets') %>">
<h2><%= t('facets') %></h2>
<% if (it.form.q) { %><p class="muted small"><%= t('facetsBeforeSearch') %></p><% } %>
<% if (it.facets.length === 0) { %><p class="muted small"><%= t('facetsNone') %></p><% } %>
<% for (const f of it.facets) { %><section><h3><%= f.label %></h3><ul>
<% for (const v of f.values) { %><li><a href="<%= v.href %>"<%= v.active ? ' class="active" aria-current="true"' : '' %>><%= v.label %></a><span class="count"><%= v.count %></span></li><% } %>
<% if (f.truncated) { %><li class="muted"><%= t('facetMore') %></li><% } %>
</ul></section><% } %>
</aside>
</div>`;

const record = `<% layout('@layout') %><% const t = it.t; %>
<p class="back"><a href="<%= it.backHref %>"><%= it.backText %></a><% if (it.highlighting) { %> · <mark><%= it.highlighting %></mark><% } %></p>
<h1<% if (it.shownLang) { %> lang="<%= it.shownLang %>"<% } %>><%= it.heading %> <span class="subtitle" lang="<%= it.lang %>"><%= it.subheading %></span></h1>
<% if (it.variants.length > 0) { %><nav class="lang-switch" aria-label="<%= t('recordLanguages') %>"><span><%= t('recordLanguages') %>:</span> <% for (const v of it.variants) { %><a href="<%= v.href %>"<% if (v.htmlLang) { %> lang="<%= v.htmlLang %>"<% } %><%= v.current ? ' aria-current="true"' : '' %>><%= v.label %></a><% } %></nav><% } %>
<% if (it.fallbackNotice) { %><p class="notice"><%= it.fallbackNotice %></p><% } %>
<div class="record-body<%= it.video ? ' with-player' : '' %>"<% if (it.shownLang) { %> lang="<%= it.shownLang %>"<% } %>>
<% if (it.video) { %><section class="player" data-player aria-label="<%= t('video') %>" lang="<%= it.lang %>">
<video controls preload="metadata" src="<%= it.video %>"<% if (it.poster) { %> poster="<%= it.poster %>"<% } %>><p><%= t('videoFallback') %> <a href="<%= it.video %>"><%= t('videoOpen') %></a></p></video>
</section>
<% if (it.transcript) { %><section class="transcript-panel" aria-labelledby="transcript-h"<% if (it.transcript.htmlLang) { %> lang="<%= it.transcript.htmlLang %>"<% } %>><h2 id="transcript-h" lang="<%= it.lang %>"><%= t('transcript') %><%~ include('@fallback', { mark: it.transcript.fallback }) %></h2><%~ include('@cell', { cell: it.transcript.cell, t }) %></section><% } %>
<% } %>
<dl class="record">
<% for (const f of it.fields) { %><div class="field field-<%= f.cell.kind %>"><dt lang="<%= it.lang %>"><%= f.label %><%~ include('@fallback', { mark: f.fallback }) %></dt><dd<% if (f.htmlLang) { %> lang="<%= f.htmlLang %>"<% } %>><%~ include('@cell', { cell: f.cell, t }) %></dd></div><% } %>
</dl>
</div>
<% if (it.video) { %><script src="<%= it.base %>/player.js" defer></script><% } %>`;

const error = `<% layout('@layout') %>
<h1><%= it.status %> <%= it.heading %></h1>
<div class="error" role="alert"><%= it.detail %><% if (it.errors.length > 0) { %><ul><% for (const e of it.errors) { %><li><%= e.name %>: <%= e.detail %></li><% } %></ul><% } %></div>
<p><a href="<%= it.homeHref %>"><%= it.backText %></a></p>`;

export const TEMPLATES: Record<string, string> = {
  '@layout': layout,
  '@cell': cell,
  '@fallback': fallback,
  '@home': home,
  '@database': database,
  '@table': table,
  '@record': record,
  '@error': error,
};
