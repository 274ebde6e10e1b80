// The page's stylesheet, inlined into the HTML (no external fonts or assets).
export const styles = `
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --bg: #fff; --soft: #f6f8fa;
  --ok: #1a7f37; --fail: #cf222e; --failbg: #ffebe9; --before: #57606a; --added: #2f81f7; --freed: #d4a72c; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--soft); }
header h1 { margin: 0; font-size: 20px; }
header .muted { margin: 4px 0 0; }
nav { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: 8px 24px; display: flex; gap: 16px; flex-wrap: wrap; }
nav a { color: var(--added); text-decoration: none; }
main#app { padding: 0 24px 48px; }
section { margin-top: 24px; }
h2 { font-size: 17px; margin: 0 0 8px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: var(--muted); }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; min-width: 120px; }
.card .n { font-size: 26px; font-weight: 600; }
.card .l { color: var(--muted); }
.card.scheduled .n { color: var(--ok); }
.card.unschedulable .n, .card.error .n { color: var(--fail); }
table { border-collapse: collapse; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.name { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; white-space: nowrap; }
td.msg, p.msg { max-width: 70ch; }
.scroll { overflow-x: auto; max-width: 100%; }
.controls { display: flex; gap: 8px; margin: 8px 0; align-items: center; }
input[type=search] { padding: 4px 8px; min-width: 260px; border: 1px solid var(--line); border-radius: 6px; }
select, button { padding: 3px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); cursor: pointer; }
button:disabled { opacity: .4; cursor: default; }
.pager { display: flex; gap: 12px; align-items: center; margin: 6px 0; color: var(--muted); }
.bar { display: inline-flex; width: 120px; height: 10px; background: var(--soft); border: 1px solid var(--line); border-radius: 3px; overflow: hidden; vertical-align: middle; }
.bar.over { border-color: var(--fail); }
.fill { display: block; height: 100%; }
.fill.before, .swatch.before { background: var(--before); }
.fill.added, .swatch.added { background: var(--added); }
.fill.freed, .swatch.freed { background: repeating-linear-gradient(45deg, var(--freed), var(--freed) 3px, #fff 3px, #fff 5px); }
.swatch { display: inline-block; width: 12px; height: 10px; border-radius: 2px; vertical-align: middle; }
td.barcell .bar { width: 240px; }
td.res { white-space: nowrap; }
.restext { margin-left: 6px; color: var(--muted); font-variant-numeric: tabular-nums; }
.tainted { margin-left: 6px; padding: 0 4px; border: 1px solid var(--fail); border-radius: 3px; color: var(--fail); font-size: 0.85em; font-variant-numeric: tabular-nums; }
.outcome { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 12px; font-weight: 600; background: var(--soft); }
.outcome.Scheduled { color: var(--ok); background: #dafbe1; }
.outcome.Unschedulable, .outcome.Error, .outcome.Refused { color: var(--fail); background: var(--failbg); }
.outcome.Gated { color: #9a6700; background: #fff8c5; }
.overlay { position: fixed; inset: 0; background: rgba(31,35,40,.45); z-index: 10; display: flex; justify-content: center; align-items: flex-start; overflow: auto; padding: 32px 16px; }
.modal { background: var(--bg); border-radius: 10px; padding: 16px 24px 24px; max-width: min(1400px, 100%); width: 100%; box-shadow: 0 8px 24px rgba(0,0,0,.2); }
.modal-head { display: flex; justify-content: space-between; align-items: center; }
.modal-head h2 { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
table.matrix td { white-space: nowrap; }
td.ok { color: var(--ok); text-align: center; }
td.fail { color: var(--fail); background: var(--failbg); white-space: normal !important; min-width: 160px; }
td.notrun { color: var(--muted); text-align: center; }
th .rej { color: var(--fail); font-weight: normal; font-size: 12px; }
th .sub { color: var(--muted); font-weight: normal; font-size: 11px; }
tr.selected td { background: #ddf4ff; }
.tag { margin-left: 6px; padding: 0 5px; border-radius: 8px; font-size: 11px; background: var(--added); color: #fff; font-family: system-ui, sans-serif; }
.tag.tie { background: var(--freed); }
.chips { display: flex; flex-wrap: wrap; gap: 6px; }
.chip { border: 1px solid var(--line); border-radius: 12px; padding: 1px 8px; font-size: 12px; }
.chip.ok { color: var(--ok); }
.chip.skip { color: var(--muted); }
.chip.fail { color: var(--fail); background: var(--failbg); border-color: var(--fail); }
td.strong, div.strong { font-weight: 600; }
tr.changed td { background: #fff8c5; }
td.rejections .rejection + .rejection { margin-top: 4px; }
td.rejections .reason { color: var(--fail); }
td.rejections .plugin { font-weight: 600; }
td.rejections .detail { margin-left: 16px; color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
code.cmd { display: block; font-size: 12px; white-space: pre-wrap; background: var(--soft); border-radius: 4px; padding: 1px 6px; margin: 2px 0; }
.fail-note { color: #9a6700; }
svg.chart { display: block; margin: 8px 0; font-size: 12px; }
svg.chart .label, svg.chart .value { fill: var(--fg); }
svg.chart .track { fill: var(--soft); stroke: var(--line); }
svg.chart .added, svg.chart .after { fill: var(--added); }
svg.chart .room { fill: none; }
svg.chart .before { fill: var(--before); }
svg.chart .cost { fill: var(--freed); }
`;
