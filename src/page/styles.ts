/**
 * The page's one stylesheet, inlined so the page is a single self-contained response that
 * works offline, from a mail attachment or a file. Colours keep text at WCAG AA contrast
 * (4.5:1) on their backgrounds; the syntax colours are GitHub's light theme.
 */
export const STYLES = `
:root {
  --fg: #1f2328; --muted: #57606a; --border: #d0d7de; --subtle: #f6f8fa; --bg: #ffffff;
  --accent: #0969da; --accent-bg: #ddf4ff;
  --red: #a40e26; --red-bg: #ffebe9; --red-border: #ff8182;
  --amber: #7a4a00; --amber-bg: #fff8c5; --amber-border: #d4a72c;
  --blue: #0a3069; --blue-bg: #ddf4ff; --blue-border: #54aeff;
  --purple: #5a32a3; --purple-bg: #fbefff; --purple-border: #c297ff;
  --green: #116329; --green-bg: #dafbe1; --green-border: #4ac26b;
  --grey: #424a53; --grey-bg: #eaeef2; --grey-border: #afb8c1;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; color: var(--fg); background: var(--subtle);
  overflow-wrap: break-word;
  font: 16px/1.55 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
}
a { color: var(--accent); text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 3px; }
code, pre, kbd { font-family: var(--mono); font-size: 0.875em; }
p code, li :not(pre) > code, li > code, td code, summary code, figcaption code, dd code {
  background: var(--subtle); border: 1px solid #eaeef2; border-radius: 4px; padding: 0 0.3em;
  overflow-wrap: anywhere;
}
.skip { position: absolute; left: -999px; top: 0; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: 0.5rem 1rem; z-index: 10; }
.wrap { max-width: 68rem; margin: 0 auto; padding: 0 1.25rem; }

/* Header */
.top { background: var(--bg); border-bottom: 1px solid var(--border); padding: 1.5rem 0 1.25rem; }
.eyebrow { margin: 0; color: var(--muted); font-size: 0.8125rem; text-transform: uppercase; letter-spacing: 0.06em; font-weight: 600; }
h1 { margin: 0.25rem 0 0.5rem; font-size: 1.75rem; line-height: 1.25; }
h1 .sep { color: var(--muted); font-weight: 400; }
.meta { display: flex; flex-wrap: wrap; gap: 0.35rem 1.25rem; margin: 0.5rem 0 0; padding: 0; list-style: none; color: var(--muted); font-size: 0.9375rem; }
.meta strong { color: var(--fg); font-weight: 600; }
.tally { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.9rem 0 0; }
.links { margin: 0.9rem 0 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }
.button-link {
  display: inline-block; padding: 0.3rem 0.8rem; border: 1px solid var(--border); border-radius: 6px;
  background: var(--subtle); color: var(--fg); text-decoration: none; font-size: 0.9375rem; font-weight: 500;
}
.button-link:hover { background: var(--grey-bg); }

main.wrap { padding-top: 1.5rem; padding-bottom: 2rem; }
h2 { font-size: 1.3rem; line-height: 1.3; margin: 0; }
h3 { font-size: 1.05rem; margin: 0 0 0.5rem; }
h4 { font-size: 0.9375rem; margin: 1rem 0 0.35rem; color: var(--muted); }
.card, .failure {
  background: var(--bg); border: 1px solid var(--border); border-radius: 10px;
  padding: 1.25rem 1.5rem; margin: 0 0 1.5rem;
}
.muted { color: var(--muted); }
.small { font-size: 0.875rem; }

/* Badges and tags */
.badge {
  display: inline-block; padding: 0.1rem 0.6rem; border-radius: 999px; border: 1px solid;
  font-size: 0.8125rem; font-weight: 600; line-height: 1.5; white-space: nowrap; vertical-align: 0.1em;
}
.v-caused_by_change { color: var(--red); background: var(--red-bg); border-color: var(--red-border); }
.v-pre_existing { color: var(--purple); background: var(--purple-bg); border-color: var(--purple-border); }
.v-flaky { color: var(--amber); background: var(--amber-bg); border-color: var(--amber-border); }
.v-environment { color: var(--blue); background: var(--blue-bg); border-color: var(--blue-border); }
.v-need_evidence { color: var(--grey); background: var(--grey-bg); border-color: var(--grey-border); }
.badge.ok { color: var(--green); background: var(--green-bg); border-color: var(--green-border); }
.badge.degraded { color: var(--amber); background: var(--amber-bg); border-color: var(--amber-border); }
.level {
  display: inline-block; padding: 0 0.45rem; border-radius: 4px; font-size: 0.8125rem; font-weight: 600;
  border: 1px solid; white-space: nowrap;
}
.level-line { color: var(--green); background: var(--green-bg); border-color: var(--green-border); }
.level-function { color: var(--blue); background: var(--blue-bg); border-color: var(--blue-border); }
.level-file { color: var(--amber); background: var(--amber-bg); border-color: var(--amber-border); }
.level-need_evidence { color: var(--grey); background: var(--grey-bg); border-color: var(--grey-border); }
.tag {
  display: inline-block; padding: 0 0.4rem; border-radius: 4px; background: var(--grey-bg); color: var(--grey);
  font-size: 0.75rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.03em; vertical-align: 0.1em;
}
.tag-evidence, .tag-trace, .tag-log, .tag-error { background: var(--red-bg); color: var(--red); }
.tag-code, .tag-diff { background: var(--accent-bg); color: var(--blue); }
.tag-signal { background: var(--purple-bg); color: var(--purple); }
.category { font-weight: 600; }
.who {
  display: inline-block; padding: 0 0.5rem; margin-right: 0.4rem; border-radius: 999px; border: 1px solid var(--amber-border);
  background: var(--amber-bg); color: var(--amber); font-size: 0.8125rem; font-weight: 600; white-space: nowrap;
}
.target-chip { display: inline-block; padding: 0.05rem 0.6rem; border-radius: 6px; border: 1px solid; font-weight: 600; font-size: 0.9375rem; }
.t-code { color: var(--red); background: var(--red-bg); border-color: var(--red-border); }
.t-test, .t-test_data { color: var(--purple); background: var(--purple-bg); border-color: var(--purple-border); }
.t-environment { color: var(--blue); background: var(--blue-bg); border-color: var(--blue-border); }
.t-none { color: var(--green); background: var(--green-bg); border-color: var(--green-border); }
.t-undecided { color: var(--grey); background: var(--grey-bg); border-color: var(--grey-border); }

/* Summary table */
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
.overview th, .overview td, .findings th, .findings td {
  text-align: left; vertical-align: top; padding: 0.55rem 0.65rem; border-bottom: 1px solid var(--border);
}
.overview th, .findings th { font-size: 0.8125rem; color: var(--muted); font-weight: 600; border-bottom-width: 2px; }
.overview tbody tr:last-child td { border-bottom: 0; }
.overview td.test a { font-weight: 600; overflow-wrap: anywhere; }
.overview td .where { display: block; margin-top: 0.2rem; font-size: 0.875rem; }
.overview .n { color: var(--muted); width: 2rem; }
.overview td.verdict { width: 14rem; }
.overview .category-small { display: block; margin-top: 0.2rem; font-size: 0.875rem; color: var(--muted); }

/* A failure */
.failure { padding: 0; overflow: hidden; }
.failure-head { padding: 1.25rem 1.5rem 1rem; border-bottom: 1px solid var(--border); background: linear-gradient(var(--bg), var(--subtle)); }
.failure-head .num { color: var(--muted); font-weight: 500; }
.failure-head .test { overflow-wrap: anywhere; }
.verdict-line { margin: 0.6rem 0 0.2rem; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
.means { margin: 0.2rem 0; color: var(--muted); }
.summary-text { margin: 0.4rem 0; font-family: var(--mono); font-size: 0.875rem; overflow-wrap: anywhere; }
.failure-head p:last-child { margin-bottom: 0; }
.part { padding: 1rem 1.5rem; border-bottom: 1px solid #eaeef2; }
.part:last-child { border-bottom: 0; }
.part p { margin: 0.4rem 0; }
.place { font-size: 1.02rem; }

/* Causal chain */
.chain { list-style: none; counter-reset: step; margin: 0; padding: 0; }
.chain > li { counter-increment: step; position: relative; padding: 0 0 0.9rem 2.4rem; }
.chain > li::before {
  content: counter(step); position: absolute; left: 0; top: 0.05rem; width: 1.6rem; height: 1.6rem;
  border-radius: 50%; background: var(--grey-bg); color: var(--grey); font-weight: 700; font-size: 0.8125rem;
  display: flex; align-items: center; justify-content: center;
}
.chain > li:not(:last-child)::after {
  content: ""; position: absolute; left: 0.78rem; top: 1.8rem; bottom: 0.1rem; width: 2px; background: var(--grey-bg);
}
.chain > li.earliest::before { background: var(--red-bg); color: var(--red); box-shadow: 0 0 0 1px var(--red-border); }
.claim { margin: 0 0 0.25rem; overflow-wrap: anywhere; }
.cites { list-style: none; margin: 0.2rem 0 0.3rem; padding: 0; font-size: 0.875rem; }
.cites > li { margin: 0.2rem 0; overflow-wrap: anywhere; }
.cites-none { color: var(--red); font-size: 0.875rem; margin: 0; }
.signal-name { font-weight: 600; }
details.ev > summary, details.reasons > summary, details.signal-cites > summary {
  cursor: pointer; overflow-wrap: anywhere;
}
details.ev > summary:hover, details.reasons > summary:hover { color: var(--accent); }
details[open].ev { background: var(--subtle); border: 1px solid var(--border); border-radius: 6px; padding: 0.35rem 0.6rem 0.5rem; margin: 0.35rem 0; }
details.signal-cites { display: inline; margin-left: 0.4rem; font-size: 0.875rem; color: var(--muted); }
details.signal-cites[open] { display: block; color: var(--fg); }
q { font-style: italic; color: var(--muted); }
.extent { margin: 0.3rem 0 0 !important; font-size: 0.8125rem; color: var(--muted); }
.unavailable { color: var(--amber); background: var(--amber-bg); border-left: 3px solid var(--amber-border); padding: 0.3rem 0.6rem; border-radius: 0 4px 4px 0; font-size: 0.875rem; }

/* Code */
.excerpt { margin: 0.6rem 0 0.2rem; }
figcaption { font-size: 0.8125rem; color: var(--muted); margin-bottom: 0.3rem; }
.legend { margin-left: 0.6rem; white-space: nowrap; }
.swatch { display: inline-block; width: 0.75rem; height: 0.75rem; vertical-align: -0.1em; border-left: 3px solid #2da44e; background: #e6ffec; }
.code { overflow-x: auto; border: 1px solid var(--border); border-radius: 6px; background: var(--bg); }
.code table { font-family: var(--mono); font-size: 0.8125rem; line-height: 1.5; width: 100%; }
.code td { padding: 0 0.75rem; white-space: pre; vertical-align: top; }
.code td.ln {
  width: 1%; text-align: right; color: var(--muted); background: var(--subtle); border-right: 1px solid var(--border);
  user-select: none; padding: 0 0.6rem 0 0.9rem;
}
.code td.ln a { color: inherit; text-decoration: none; }
.code td.ln a:hover { color: var(--accent); text-decoration: underline; }
.code tr:first-child td { padding-top: 0.35rem; }
.code tr:last-child td { padding-bottom: 0.35rem; }
.code tr.m-changed td.ln { box-shadow: inset 3px 0 0 #2da44e; }
.code tr.m-changed td.src { background: #e6ffec; }
.code tr.m-place td.src, .code tr.m-cited td.src { background: #fff8c5; }
.code tr.m-place td.ln, .code tr.m-cited td.ln { color: var(--fg); font-weight: 700; background: #fae17d; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.commands { list-style: none; padding: 0; margin: 0; }
.commands pre code, .replacement code { background: none; border: 0; padding: 0; color: inherit; }
.commands pre, .replacement { background: #24292f; color: #f6f8fa; padding: 0.5rem 0.75rem; border-radius: 6px; margin: 0.25rem 0; }
.hljs-keyword, .hljs-doctag, .hljs-meta .hljs-keyword, .hljs-template-tag, .hljs-type, .hljs-variable.language_ { color: #cf222e; }
.hljs-title, .hljs-title.class_, .hljs-title.function_ { color: #8250df; }
.hljs-attr, .hljs-attribute, .hljs-literal, .hljs-meta, .hljs-number, .hljs-operator, .hljs-variable, .hljs-selector-attr { color: #0550ae; }
.hljs-regexp, .hljs-string, .hljs-meta .hljs-string { color: #0a3069; }
.hljs-built_in, .hljs-symbol { color: #953800; }
.hljs-comment, .hljs-code, .hljs-formula { color: #6e7781; font-style: italic; }
.hljs-name, .hljs-quote, .hljs-selector-tag, .hljs-selector-pseudo { color: #116329; }
.hljs-params { color: var(--fg); }

/* Lists */
.frames { padding-left: 1.2rem; }
.frames > li { margin: 0.6rem 0 1rem; }
.facts, .signals, .missing, .alternatives, .warnings { padding-left: 1.2rem; margin: 0.3rem 0; }
.facts > li, .signals > li, .missing > li, .alternatives > li { margin: 0.35rem 0; overflow-wrap: anywhere; }
.missing { list-style: none; padding: 0; }
dl.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr)); gap: 0.5rem; margin: 0; }
dl.stats > div { background: var(--subtle); border: 1px solid #eaeef2; border-radius: 6px; padding: 0.4rem 0.7rem; }
dl.stats dt { font-size: 0.75rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
dl.stats dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
.sev { font-weight: 700; font-size: 0.8125rem; }
.part-meta { display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 0.5rem 2rem; }
.part-meta h3 { margin-top: 0; }
.sev-error { color: var(--red); }
.sev-warning { color: var(--amber); }

/* QA form */
.qa .fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 0 1rem; }
.field { margin: 0.75rem 0; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
select, textarea, input[type=file] {
  width: 100%; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--border);
  border-radius: 6px; padding: 0.45rem 0.6rem;
}
textarea { font-family: var(--mono); font-size: 0.875rem; resize: vertical; }
button {
  font: inherit; font-weight: 600; color: #fff; background: #1f883d; border: 1px solid #1a7f37;
  border-radius: 6px; padding: 0.45rem 1rem; cursor: pointer;
}
button:hover { background: #1a7f37; }
footer { color: var(--muted); font-size: 0.8125rem; padding: 0 0 2rem; }

@media (max-width: 40rem) {
  body { font-size: 15px; }
  .wrap { padding: 0 0.75rem; }
  h1 { font-size: 1.4rem; }
  .card, .failure-head, .part { padding-left: 1rem; padding-right: 1rem; }
  .overview thead, .overview .n { display: none; }
  .overview tr { display: block; padding: 0.6rem 0; border-bottom: 1px solid var(--border); }
  .overview tbody tr:last-child { border-bottom: 0; }
  .overview td { display: block; padding: 0.1rem 0; border: 0; }
  .overview td.verdict { width: auto; margin-top: 0.3rem; }
  .overview .category-small { display: inline; margin-left: 0.4rem; }
}
@media print {
  body { background: #fff; font-size: 11pt; }
  .top { border: 0; padding-top: 0; }
  .card, .failure { border: 0; border-radius: 0; padding-left: 0; padding-right: 0; }
  .failure { break-before: page; }
  .failure-head { background: none; padding-left: 0; }
  .part { padding-left: 0; padding-right: 0; }
  .qa-card, .skip, .links { display: none; }
  .code { overflow: visible; }
  .code td { white-space: pre-wrap; }
  .code, figure, tr { break-inside: avoid; }
  a { color: inherit; }
  .badge, .level, .tag, .who, .target-chip, .code tr td { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`;
