/**
 * The web interfaces' only stylesheet and script, served from their own origin (the Content-Security-
 * Policy allows nothing else). The script adds conveniences only: copy buttons and confirmations.
 */
export const STYLESHEET = `
:root { color-scheme: light; --ink: #1a2233; --muted: #566074; --line: #d8dde7; --accent: #0a6b4d;
  --accent-ink: #fff; --warn: #8a5200; --bad: #a01d1d; --bg: #f5f7fa; --panel: #fff; --sandbox: #fff1c7; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: #0a5a8a; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible {
  outline: 3px solid #3b82f6; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem; }
.skip:focus { left: .5rem; z-index: 10; }
.shell { display: grid; grid-template-columns: 15rem 1fr; min-height: 100vh; }
.side { background: #101828; color: #e6e9f0; padding: 1.25rem 1rem; }
.side a { color: #e6e9f0; text-decoration: none; display: block; padding: .4rem .6rem; border-radius: 6px; }
.side a[aria-current=page] { background: #24324a; font-weight: 600; }
.side a:hover { background: #1c2638; }
.brand { font-weight: 700; font-size: 1.1rem; margin: 0 .6rem 1rem; letter-spacing: .02em; }
.project { color: #aab3c5; font-size: .85rem; margin: 0 .6rem 1rem; }
.side nav ul { list-style: none; margin: 0; padding: 0; }
.side h2 { font-size: .75rem; text-transform: uppercase; color: #aab3c5; margin: 1rem .6rem .25rem; }
.content { padding: 1.25rem 2rem 3rem; min-width: 0; }
.topbar { display: flex; gap: 1rem; align-items: center; justify-content: space-between; flex-wrap: wrap;
  margin-bottom: 1rem; }
.envswitch { display: inline-flex; border: 1px solid var(--line); border-radius: 8px; overflow: hidden;
  background: var(--panel); }
.envswitch a { padding: .35rem .8rem; text-decoration: none; color: var(--ink); }
.envswitch a[aria-current=true] { background: var(--ink); color: #fff; font-weight: 600; }
.envbanner { background: var(--sandbox); border: 1px solid #e8c95a; border-radius: 8px; padding: .45rem .8rem;
  margin-bottom: 1rem; }
.envbanner.production { background: #e4f3ec; border-color: #9fd2b9; }
.user { display: flex; gap: .75rem; align-items: center; color: var(--muted); }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.panel > h2:first-child, .panel > figcaption:first-child { margin-top: 0; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.25rem;
  margin-bottom: 1rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; }
.stat { font-size: 1.6rem; font-weight: 700; }
.tablewrap + .panel { margin-top: 1rem; }
ol.panel { padding-left: 2.5rem; }
.chartfig { margin: 0; }
.chartfig figcaption { color: var(--muted); margin-bottom: .5rem; }
.chartwrap { overflow-x: auto; }
svg.chart { display: block; width: 100%; min-width: 36rem; height: auto; max-width: 960px; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; margin: .5rem 0; padding: 0; }
.legend li { display: flex; align-items: center; gap: .4rem; }
details > summary { cursor: pointer; margin: .5rem 0; }
.tablewrap { overflow-x: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .55rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8rem; text-transform: uppercase; color: var(--muted); background: #fafbfc; }
tr:last-child td { border-bottom: 0; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .88em;
  overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
/* Facts side by side, each term above its value, in columns wide enough for an identifier on one line. */
dl.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 19rem), 1fr)); gap: .6rem 1.5rem; }
dl.facts > div { min-width: 0; }
dl.facts dd { margin-top: .1rem; }
/* An identifier (tax id, e-mail, id) breaks only where it must: at a <wbr>, or, when a part cannot fit the
   screen at all, within it rather than overflowing. */
.ident { overflow-wrap: normal; word-break: normal; }
dd .ident { overflow-wrap: anywhere; }
code.ident { white-space: nowrap; }
.ident > span { display: inline-block; max-width: 100%; }
pre.mono { white-space: pre-wrap; margin: .4rem 0 0; }
form.inline { display: inline; }
fieldset.bare { border: 0; padding: 0; margin: 0; min-width: 0; }
fieldset.bare legend { font-weight: 700; padding: 0; margin-bottom: .5rem; }
h3 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .75rem; }
.formrow { display: flex; gap: .75rem; flex-wrap: wrap; align-items: flex-end; }
.field { display: flex; flex-direction: column; gap: .25rem; margin-bottom: .75rem; min-width: 12rem; }
label { font-weight: 600; font-size: .9rem; }
.hint { color: var(--muted); font-size: .85rem; font-weight: 400; }
input, select, textarea { font: inherit; padding: .45rem .6rem; border: 1px solid #8f99ab; border-radius: 6px;
  background: #fff; color: var(--ink); }
button, .button { font: inherit; font-weight: 600; border: 1px solid var(--accent); background: var(--accent);
  color: var(--accent-ink); border-radius: 6px; padding: .45rem .9rem; cursor: pointer; text-decoration: none;
  display: inline-block; }
button.secondary { background: #fff; color: var(--ink); border-color: #8f99ab; }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.badge { display: inline-block; border-radius: 999px; padding: .05rem .55rem; font-size: .8rem; font-weight: 600;
  background: #e7ebf2; color: var(--ink); white-space: nowrap; }
.badge.ok { background: #dcf1e7; color: #0a5a3f; }
.badge.warn { background: #fff0d6; color: var(--warn); }
.badge.bad { background: #fbe2e2; color: var(--bad); }
.notice { border-radius: 8px; padding: .6rem .9rem; margin-bottom: 1rem; border: 1px solid #9fd2b9;
  background: #eaf7f0; }
.notice.error { border-color: #e8a7a7; background: #fff4f4; }
/* An ownership tree: each party indented under its parent. */
.tree { display: inline-block; }
tr[data-depth="1"] .tree { padding-left: 1.2rem; }
tr[data-depth="2"] .tree { padding-left: 2.4rem; }
tr[data-depth="3"] .tree { padding-left: 3.6rem; }
.fielderror { color: var(--bad); font-size: .85rem; margin: 0; }
input[aria-invalid=true], select[aria-invalid=true] { border-color: var(--bad); }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; background: #fffbea;
  border: 1px solid #e8c95a; border-radius: 8px; padding: .6rem .8rem; }
.secret code { font-size: .95rem; }
.idcell { display: inline-flex; gap: .4rem; align-items: center; flex-wrap: wrap; }
.idcell code.id { font-size: .8rem; }
button.copy { padding: .1rem .45rem; font-size: .75rem; }
.empty { color: var(--muted); padding: 1rem; }
.pager { display: flex; gap: 1rem; margin-top: .75rem; }
.auth { max-width: 26rem; margin: 4rem auto; background: var(--panel); border: 1px solid var(--line);
  border-radius: 12px; padding: 1.75rem; }
.auth .field { min-width: 0; }
.auth input, .auth button { width: 100%; }
.qr { width: 220px; height: 220px; image-rendering: pixelated; border: 1px solid var(--line); }
figure { margin: 0 0 1rem; }
.doc { object-fit: contain; width: 100%; max-height: 70vh; border: 1px solid var(--line); border-radius: 8px; background: #fff; }
iframe.doc { height: 60vh; }
@media (max-width: 760px) {
  .shell { grid-template-columns: 1fr; }
  .side { padding: .75rem; }
  .side nav ul { display: flex; flex-wrap: wrap; gap: .25rem; }
  .side h2, .project { display: none; }
  .brand { margin-bottom: .5rem; }
  .content { padding: 1rem; }
  dl { grid-template-columns: 6.5rem 1fr; gap: .3rem .75rem; }
  code.ident { white-space: normal; }
  .field { min-width: 0; width: 100%; }
  /* Short fields (choices, dates) two to a line; text fields and buttons take the whole line. */
  .formrow > .field { flex: 1 1 8.5rem; width: auto; }
  .formrow > .field:has(input:not([type=date])), .formrow > .field:has(button) { flex-basis: 100%; }
  .auth { margin: 1rem; }
  .topbar { gap: .5rem; }
  .user { flex-wrap: wrap; gap: .5rem; }
  /* Tables become one card per row, each value beside its column's heading. */
  .tablewrap:has(table) { background: transparent; border: 0; border-radius: 0; overflow: visible; }
  .tablewrap table, .tablewrap tbody, .tablewrap tr, .tablewrap td { display: block; width: 100%; }
  .tablewrap thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
    white-space: nowrap; }
  .tablewrap tr { background: var(--panel); border: 1px solid var(--line); border-radius: 10px;
    margin-bottom: .6rem; padding: .4rem 0; }
  .tablewrap td { border: 0; padding: .25rem .9rem; overflow-wrap: anywhere; }
  .tablewrap td[data-label] { display: flow-root; padding-left: 7.6rem; }
  .tablewrap td[data-label]::before { content: attr(data-label); float: left; width: 6.3rem; margin-left: -6.7rem;
    padding-top: .15rem; color: var(--muted); font-size: .72rem; font-weight: 600; text-transform: uppercase;
    letter-spacing: .02em; overflow-wrap: anywhere; }
  .tablewrap td:empty { display: none; }
  .tablewrap td ol { padding-left: 1.1rem; margin: 0; }
}
`.trim();

export const SCRIPT = `
document.addEventListener('click', function (event) {
  var button = event.target.closest('[data-copy]');
  if (!button) return;
  var target = document.getElementById(button.getAttribute('data-copy'));
  if (!target || !navigator.clipboard) return;
  navigator.clipboard.writeText(target.textContent.trim()).then(function () {
    button.textContent = 'Copied';
  });
});
document.addEventListener('submit', function (event) {
  var message = event.target.getAttribute('data-confirm');
  if (message && !window.confirm(message)) event.preventDefault();
});
`.trim();
