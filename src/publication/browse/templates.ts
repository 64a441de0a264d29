/**
 * The Eta templates of the browse pages, kept as strings in code so the build carries them
 * (tsc copies no other files). `<%= %>` escapes; `<%~ %>` (raw) is used only for HTML this
 * server produced itself: the rendered page body in the layout, and highlighted excerpts and
 * transcriptions, which text/highlight.ts builds by escaping every piece of stored text.
 */

const cell = `<% const c = it.cell; %>
<% if (c.kind === 'null') { %><span class="null" aria-label="empty">—</span>
<% } else if (c.kind === 'links') { %><% c.links.forEach((l, i) => { %><%= i ? ', ' : '' %><a href="<%= l.href %>"><%= l.label %></a><% }) %>
<% } else if (c.kind === 'json') { %><pre class="json"><%= c.text %></pre>
<% } else if (c.kind === 'html') { %><%~ c.html %>
<% } else if (c.kind === 'transcript') { %><div class="transcript"><% for (const para of c.paragraphs) { %><p><% for (const p of para) { %><% if (p.kind === 'tc') { %><span class="tc" title="timecode"><%= p.label %></span><% } else if (p.kind === 'page') { %><span class="page" title="page">p. <%= p.label %></span><% } else if (p.kind === 'speaker') { %><strong class="speaker"><%= p.label %>:</strong><% } else { %><%~ p.html %><% } %><% } %></p><% } %></div>
<% } else { %><%= c.text %><% } %>`;

const layout = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title><%= it.title %> · Dédalo publication</title>
<link rel="stylesheet" href="<%= it.base %>/style.css">
</head>
<body>
<header class="top">
<a class="brand" href="<%= it.base %>/">Dédalo publication</a>
<nav class="crumbs" aria-label="Breadcrumb"><ol>
<% for (const c of it.crumbs) { %><li><% if (c.href) { %><a href="<%= c.href %>"><%= c.label %></a><% } else { %><span aria-current="page"><%= c.label %></span><% } %></li><% } %>
</ol></nav>
<a href="<%= it.docsHref %>">API docs</a>
</header>
<main id="main">
<%~ it.body %>
</main>
</body>
</html>`;

const home = `<% layout('@layout') %>
<h1>Published databases</h1>
<ul class="plain">
<% for (const d of it.databases) { %><li><a href="<%= d.href %>"><%= d.name %></a></li><% } %>
</ul>
<p class="muted">The same data as JSON: <a href="<%= it.apiHref %>">the API index</a>; its description: <a href="<%= it.docsHref %>">API docs</a>.</p>`;

const database = `<% layout('@layout') %>
<h1>Tables of <%= it.db %></h1>
<div class="table-wrap"><table class="rows">
<caption class="muted">Row counts are the engine's estimates.</caption>
<thead><tr><th scope="col">Table</th><th scope="col">Rows</th><th scope="col">Columns</th></tr></thead>
<tbody>
<% for (const t of it.tables) { %><tr><td><a href="<%= t.href %>"><%= t.name %></a></td><td><%= t.rows %></td><td><%= t.columns %></td></tr><% } %>
</tbody></table></div>`;

const table = `<% layout('@layout') %>
<h1><%= it.table %> <span class="subtitle"><%= it.summary %></span></h1>
<% if (it.error) { %><div class="error" role="alert"><strong>Cannot show these rows:</strong> <%= it.error.detail %><% if (it.error.errors.length > 1) { %><ul><% for (const e of it.error.errors) { %><li><%= e.name %>: <%= e.detail %></li><% } %></ul><% } %></div><% } %>
<div class="layout">
<div>
<form class="search" method="get" action="<%= it.form.action %>">
<% if (it.form.searchColumns.length > 0) { %>
<div><label for="q">Full-text search</label><input id="q" name="q" type="search" value="<%= it.form.q %>" size="28" placeholder="+word -other &quot;a phrase&quot;"></div>
<% if (it.form.searchColumns.length > 1) { %><div><label for="column">in</label><select id="column" name="column"><% for (const c of it.form.searchColumns) { %><option value="<%= c %>"<%= c === it.form.column ? ' selected' : '' %>><%= c %></option><% } %></select></div><% } %>
<% } %>
<% if (it.form.hasLang) { %><div><label for="lang">Language</label><select id="lang" name="lang"><option value="">all</option><% for (const l of it.form.languages) { %><option value="<%= l %>"<%= l === it.form.lang ? ' selected' : '' %>><%= l %></option><% } %></select></div><% } %>
<div><label for="limit">Rows per page</label><select id="limit" name="limit"><% for (const n of it.form.limits) { %><option<%= n === it.form.limit ? ' selected' : '' %>><%= n %></option><% } %></select></div>
<% if (it.form.sort) { %><input type="hidden" name="sort" value="<%= it.form.sort %>"><% } %>
<% for (const f of it.filters) { if (f.value !== '' || f.op === 'is_null' || f.op === 'is_not_null') { %><input type="hidden" name="op[<%= f.column %>]" value="<%= f.op %>"><input type="hidden" name="v[<%= f.column %>]" value="<%= f.value %>"><% } } %>
<button type="submit">Show</button>
</form>
<details class="filters"<%= it.filtersOpen ? ' open' : '' %>>
<summary>Filter by column</summary>
<form method="get" action="<%= it.form.action %>">
<% if (it.form.q) { %><input type="hidden" name="q" value="<%= it.form.q %>"><input type="hidden" name="column" value="<%= it.form.column %>"><% } %>
<% if (it.form.lang) { %><input type="hidden" name="lang" value="<%= it.form.lang %>"><% } %>
<% if (it.form.sort) { %><input type="hidden" name="sort" value="<%= it.form.sort %>"><% } %>
<input type="hidden" name="limit" value="<%= it.form.limit %>">
<div class="filter-grid">
<% for (const f of it.filters) { %><fieldset><legend><%= f.column %> <span class="muted">(<%= f.type %>)</span></legend>
<select name="op[<%= f.column %>]" aria-label="operator for <%= f.column %>"><% for (const o of f.ops) { %><option value="<%= o.value %>"<%= o.value === f.op ? ' selected' : '' %>><%= o.label %></option><% } %></select>
<input name="v[<%= f.column %>]" value="<%= f.value %>" aria-label="value for <%= f.column %>"></fieldset>
<% } %>
</div>
<button type="submit">Apply filters</button> <a href="<%= it.form.action %>">Clear all</a>
</form>
</details>
<div class="pager">
<span><%= it.pager.label %></span>
<% if (it.pager.prevHref) { %><a rel="prev" href="<%= it.pager.prevHref %>">← Previous</a><% } %>
<% if (it.pager.nextHref) { %><a rel="next" href="<%= it.pager.nextHref %>">Next →</a><% } %>
<span class="exports">Download: <% it.exports.forEach((e, i) => { %><%= i ? ' · ' : '' %><a href="<%= e.href %>"><%= e.label %></a><% }) %></span>
</div>
<div class="table-wrap"><table class="rows">
<thead><tr>
<% for (const h of it.headers) { %><th scope="col" aria-sort="<%= h.ariaSort %>"><% if (h.href) { %><a href="<%= h.href %>" title="sort by <%= h.name %>"><%= h.name %><%= h.arrow %></a><% } else { %><%= h.name %><% } %></th><% } %>
</tr></thead>
<tbody>
<% if (it.rows.length === 0) { %><tr><td colspan="<%= it.headers.length %>" class="muted">No rows match.</td></tr><% } %>
<% for (const r of it.rows) { %><tr>
<% r.cells.forEach((c, i) => { %><td<%= c.long ? ' class="long"' : '' %>><% if (i === 0 && r.href) { %><a href="<%= r.href %>"><%= c.text %></a><% } else if (c.wide) { %><div class="wide"><%~ include('@cell', { cell: c }) %></div><% } else if (c.long) { %><div class="clamp"><%~ include('@cell', { cell: c }) %></div><% } else { %><%~ include('@cell', { cell: c }) %><% } %></td><% }) %>
</tr><% } %>
</tbody></table></div>
</div>
<aside class="panel facet" aria-label="Facets">
<h2>Facets</h2>
<% if (it.form.q) { %><p class="muted">Counts of the rows under the filters and language, before the search.</p><% } %>
<% if (it.facets.length === 0) { %><p class="muted">This table has no indexed column to count.</p><% } %>
<% for (const f of it.facets) { %><section><h3><%= f.column %></h3><ul>
<% for (const v of f.values) { %><li><a href="<%= v.href %>"<%= v.active ? ' class="active" aria-current="true"' : '' %>><%= v.label %></a><span class="count"><%= v.count %></span></li><% } %>
<% if (f.truncated) { %><li class="muted">… more values</li><% } %>
</ul></section><% } %>
</aside>
</div>`;

const record = `<% layout('@layout') %>
<h1><%= it.table %> <%= it.id %></h1>
<p><a href="<%= it.backHref %>">← All rows of <%= it.table %></a><% if (it.q) { %> · highlighting <mark><%= it.q %></mark><% } %></p>
<% if (it.variants.length > 1) { %><nav class="lang-switch" aria-label="Languages">Languages: <% for (const v of it.variants) { %><a href="#<%= v.anchor %>"><%= v.lang %></a><% } %></nav><% } %>
<% for (const v of it.variants) { %><section class="variant panel" id="<%= v.anchor %>"<% if (v.htmlLang) { %> lang="<%= v.htmlLang %>"<% } %>>
<% if (v.lang) { %><h2 lang="en"><%= v.lang %></h2><% } %>
<dl class="record">
<% for (const f of v.fields) { %><dt lang="en"><%= f.name %></dt><dd><%~ include('@cell', { cell: f.cell }) %></dd><% } %>
</dl>
</section><% } %>`;

const error = `<% layout('@layout') %>
<h1><%= it.status %> <%= it.heading %></h1>
<div class="error" role="alert"><%= it.detail %><% if (it.errors.length > 0) { %><ul><% for (const e of it.errors) { %><li><%= e.name %>: <%= e.detail %></li><% } %></ul><% } %></div>
<p><a href="<%= it.base %>/">Back to the published databases</a></p>`;

export const TEMPLATES: Record<string, string> = {
  '@layout': layout,
  '@cell': cell,
  '@home': home,
  '@database': database,
  '@table': table,
  '@record': record,
  '@error': error,
};
