/**
 * The dev panel's page script, as the source of a virtual module the app's own dev server
 * serves: its imports (`react`, `react-dom/client`, the runtime's `GeneratedForm`) resolve from
 * the app, so the panel runs on the app's own React. Plain JavaScript with `createElement`: the
 * app needs no JSX transform for it. It asks `/__mcp-bridge/api/state` every second.
 */
export const PANEL_MODULE_ID = 'virtual:mcp-bridge/dev-panel'

export const PANEL_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>mcp-bridge dev panel</title>
    <link rel="icon" href="data:," />
    <style>
      :root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
      body { margin: 0; padding: 16px 20px 40px; max-width: 1100px; }
      h1 { font-size: 18px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 24px 0 8px; }
      .muted { opacity: .7; } code { font: 12px ui-monospace, monospace; }
      .card { border: 1px solid color-mix(in srgb, currentColor 20%, transparent); border-radius: 8px; padding: 10px 12px; margin: 8px 0; }
      .row { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
      .status { font-weight: 600; } .status.waiting { color: #b26b00; } .status.completed { color: #1a7f37; } .status.failed, .status.aborted { color: #c62828; }
      ol.timeline { margin: 6px 0 0; padding-left: 20px; } ol.timeline li { margin: 1px 0; }
      .kind { display: inline-block; min-width: 70px; opacity: .7; }
      .error { color: #c62828; } .warning { color: #b26b00; }
      button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid currentColor; background: transparent; color: inherit; cursor: pointer; }
      .answer { margin-top: 8px; padding: 8px; border-radius: 6px; background: color-mix(in srgb, currentColor 6%, transparent); }
    </style>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/@id/${PANEL_MODULE_ID}"></script>
  </body>
</html>
`

export const PANEL_SOURCE = String.raw`
import { createElement as h, useCallback, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { GeneratedForm } from '@mcp-bridge/runtime/react'

const API = '/__mcp-bridge/api'

async function post(path, body) {
  const response = await fetch(API + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) })
  return response.json()
}

/** Pages of the call's conversation (another tab of this browser) restore it: an answer given here shows there. */
function tell(outcome) {
  if (!outcome.ok || !outcome.conversation || outcome.revision === undefined) return
  const channel = new BroadcastChannel('mcp-bridge:conversation:' + outcome.conversation)
  channel.postMessage({ revision: outcome.revision })
  channel.close()
}

function Question({ call, onDone }) {
  const [errors, setErrors] = useState(undefined)
  const [busy, setBusy] = useState(false)
  const answer = async (result) => {
    setBusy(true)
    const outcome = await post('/calls/' + encodeURIComponent(call.callId) + '/answer', result)
    setBusy(false)
    if (!outcome.ok) return setErrors(outcome.issues ?? [{ path: '', message: outcome.message }])
    setErrors(undefined)
    tell(outcome)
    onDone()
  }
  const q = call.pending
  return h('section', { className: 'answer', 'aria-label': 'Answer ' + q.key + ' of ' + call.tool },
    h('div', { className: 'muted' }, 'Answer as the person (', h('code', null, q.key), ')'),
    h(GeneratedForm, { key: call.callId + q.key, message: q.message, schema: q.schema, errors, onSubmit: answer, disabled: busy }))
}

function Call({ call, onChange }) {
  const cancel = async () => {
    const outcome = await post('/calls/' + encodeURIComponent(call.callId) + '/cancel')
    tell(outcome)
    onChange()
  }
  return h('article', { className: 'card', 'aria-label': 'Call ' + call.tool + ' ' + call.callId },
    h('div', { className: 'row' },
      h('strong', null, call.tool),
      h('span', { className: 'status ' + call.status.split(' ')[0] }, call.status),
      h('code', { className: 'muted' }, call.callId),
      call.conversation ? h('span', { className: 'muted' }, 'conversation ', h('code', null, call.conversation)) : null,
      call.live && call.status !== 'completed' ? h('button', { type: 'button', onClick: cancel }, 'Cancel call') : null),
    h('ol', { className: 'timeline', 'aria-label': 'Timeline' },
      call.timeline.map((e, i) => h('li', { key: i }, h('span', { className: 'kind' }, e.kind), ' ', e.text, ' ', h('span', { className: 'muted' }, new Date(e.at).toLocaleTimeString())))),
    call.pending ? h(Question, { call, onDone: onChange }) : null)
}

function Tool({ tool }) {
  const keys = Object.keys(tool.elicits)
  return h('article', { className: 'card', 'aria-label': 'Tool ' + tool.name },
    h('div', { className: 'row' }, h('strong', null, tool.name), tool.title ? h('span', null, tool.title) : null,
      h('code', { className: 'muted' }, tool.source.file + ':' + tool.source.line), tool.plugin ? h('span', { className: 'muted' }, 'plugin ', h('code', null, tool.plugin.file)) : h('span', { className: 'muted' }, 'no plugin')),
    tool.description ? h('div', null, tool.description) : null,
    h('div', { className: 'muted' }, keys.length ? 'asks: ' + keys.join(', ') : 'asks nothing'),
    h('details', null, h('summary', null, 'Schemas'), h('pre', null, h('code', null, JSON.stringify({ parameters: tool.parameters, elicits: tool.elicits, output: tool.output }, null, 2)))))
}

function Panel() {
  const [state, setState] = useState(undefined)
  const [problem, setProblem] = useState(undefined)
  const refresh = useCallback(() => fetch(API + '/state').then((r) => r.json()).then((s) => (setState(s), setProblem(undefined)), (e) => setProblem(String(e))), [])
  useEffect(() => {
    refresh()
    const timer = setInterval(refresh, 1000)
    return () => clearInterval(timer)
  }, [refresh])
  if (!state) return h('p', null, problem ?? 'Loading…')
  return h('main', null,
    h('h1', null, 'mcp-bridge dev panel'),
    h('div', { className: 'muted' }, state.store ? 'Calls are kept in the ' + state.store + ' store.' : 'No app server (the plugin has no server option, or it did not load).', problem ? ' ' + problem : ''),
    h('h2', null, 'Calls (', state.calls.length, ')'),
    state.calls.length ? state.calls.map((c) => h(Call, { key: c.callId, call: c, onChange: refresh })) : h('p', { className: 'muted' }, 'No tool call since the panel opened. Start one in the chat.'),
    h('h2', null, 'Diagnostics (', state.diagnostics.length, ')'),
    state.diagnostics.length ? h('ul', null, state.diagnostics.map((d, i) => h('li', { key: i, className: d.severity }, h('code', null, d.file + ':' + d.line + ':' + d.column), ' ', d.message))) : h('p', { className: 'muted' }, 'None.'),
    h('h2', null, 'Tools (', state.tools.length, ')'),
    state.tools.map((t) => h(Tool, { key: t.name, tool: t })))
}

createRoot(document.getElementById('root')).render(h(Panel))
`
