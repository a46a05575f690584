import { el, inputForm } from './form.js';
import { partView, withoutBytes } from './parts.js';

/**
 * The page's element for a selector, of the kind index.html gives it (checked, so a renamed
 * element fails here, by name, rather than later as a missing property).
 * @template {typeof HTMLElement} T
 * @param {string} selector
 * @param {T} [kind]
 * @returns {InstanceType<T>}
 */
function $(selector, kind) {
  const found = document.querySelector(selector);
  if (!(found instanceof (kind ?? HTMLElement))) throw new Error(`The page has no ${kind?.name ?? 'element'} ${selector}.`);
  return /** @type {InstanceType<T>} */ (found);
}

/** @typedef {import('../src/api.js').PluginsAnswer} PluginsAnswer */
/** @typedef {import('../src/api.js').PluginView} PluginView */
/** @typedef {import('../src/api.js').ToolsAnswer} ToolsAnswer */
/** @typedef {import('../src/api.js').ToolView} ToolView */
/** @typedef {import('../src/api.js').ContextAnswer} ContextAnswer */
/** @typedef {import('../src/api.js').SearchAnswer} SearchAnswer */
/** @typedef {import('../src/api.js').CallLine} CallLine */
/** @typedef {import('@toolshed/core').Outcome} Outcome */
/** @typedef {import('@toolshed/core').Progress} Progress */

/**
 * @param {string} path
 * @returns {Promise<any>} the answer of that API (each caller names its type)
 */
async function getJson(path) {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error ?? response.statusText);
  return body;
}

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/** @param {unknown} value */
const pretty = (value) => JSON.stringify(value, null, 2);
/** @type {{ tools: ToolView[] }} */
const state = { tools: [] };

// Views -------------------------------------------------------------------------------------

/** @param {string} name */
function showView(name) {
  for (const button of document.querySelectorAll('nav button'))
    button.setAttribute('aria-pressed', String(button.getAttribute('data-view') === name));
  for (const section of document.querySelectorAll('main > section')) section.toggleAttribute('hidden', section.id !== name);
}

// Plugins -----------------------------------------------------------------------------------

/** @param {PluginView} plugin */
function reasonOf(plugin) {
  if (plugin.error) return `${plugin.error.phase}: ${plugin.error.message}`;
  if (plugin.state === 'deferred') return 'its code loads on its first call';
  if (plugin.server) return `${plugin.server.transport} server, ${plugin.server.state.status}`;
  return '';
}

/** What a plugin may do, as `toolshed plugins` says it: its declared permissions and whether the sandbox holds it to them. */
/** @param {PluginView} plugin */
function permissionsOf(plugin) {
  if (plugin.source === 'mcp' && !plugin.isolated) return el('span', { class: 'hint', text: 'its own process (an MCP server)' });
  const where = plugin.isolated
    ? el('strong', { class: 'ok', 'data-isolated': 'true', text: 'isolated: granted only these' })
    : el('strong', { 'data-isolated': 'false', text: 'in the host: your full rights' });
  const { permissions } = plugin;
  if (!permissions) return el('div', {}, where, el('div', { 'data-permission': 'none', text: 'none declared' }));
  /** @param {string[]} items */
  const list = (items) => (items.length > 0 ? items.join(', ') : '-');
  const rows = [
    ['read', list(permissions.read)],
    ['write', list(permissions.write)],
    ['net', list(permissions.net)],
    ['env', list(permissions.env)],
    ['spawn', permissions.spawn ? 'yes' : 'no'],
  ];
  return el(
    'div',
    {},
    where,
    rows.map(([kind, value]) => el('div', { 'data-permission': kind }, el('span', { class: 'hint', text: `${kind} ` }), value)),
  );
}

async function renderPlugins() {
  /** @type {PluginsAnswer} */
  const { plugins, warnings } = await getJson('/api/plugins');
  const rows = plugins.map((plugin) =>
    el(
      'tr',
      { 'data-plugin': plugin.name },
      el('td', { text: plugin.name }),
      el('td', { text: plugin.version ?? '' }),
      el('td', { text: `${plugin.source}: ${plugin.spec}` }),
      el('td', { class: `state-${plugin.state}`, text: plugin.state }),
      el('td', { text: reasonOf(plugin) }),
      el('td', { text: plugin.tools.join(', ') }),
      el('td', { 'data-permissions': '' }, permissionsOf(plugin)),
      el(
        'td',
        {},
        plugin.fullRights ? el('div', { class: 'error', 'data-full-rights': '', text: plugin.fullRights }) : '',
        plugin.warnings.map((warning) => el('div', { text: warning })),
      ),
    ),
  );
  const head = el(
    'tr',
    {},
    ['plugin', 'version', 'source', 'state', 'reason', 'tools', 'permissions', 'warnings'].map((t) => el('th', { text: t })),
  );
  $('#plugins').replaceChildren(
    el('table', {}, el('thead', {}, head), el('tbody', {}, rows)),
    warnings.length
      ? el(
          'ul',
          { class: 'error' },
          warnings.map((warning) => el('li', { text: warning })),
        )
      : '',
    plugins.length ? '' : el('p', { text: 'No plugins found. Install a Toolshed plugin package or name one in toolshed.config.json.' }),
  );
}

// Tools and token costs ---------------------------------------------------------------------

function renderToolList() {
  $('#tool-list').replaceChildren(
    ...state.tools.map((tool) => {
      const { definition } = tool;
      const format = el(
        'select',
        { 'aria-label': `${definition.name} format` },
        Object.keys(tool.formats).map((f) => el('option', { text: f })),
      );
      const shown = el('pre');
      const show = () => {
        const chosen = tool.formats[format.value];
        shown.textContent = chosen.ok ? pretty(chosen.value) : `This format refuses the tool: ${chosen.message}`;
      };
      format.addEventListener('change', show);
      show();
      return el(
        'article',
        { 'data-tool': definition.name },
        el(
          'h2',
          {},
          definition.name,
          ' ',
          tool.approval ? el('span', { class: 'badge bad', text: `needs approval: ${tool.approval}` }) : '',
        ),
        el('p', { text: definition.description }),
        tool.origin ? el('p', { class: 'hint', text: `from ${tool.origin}` }) : '',
        el('details', {}, el('summary', { text: 'Input schema (JSON Schema)' }), el('pre', { text: pretty(definition.inputSchema) })),
        definition.outputSchema
          ? el('details', {}, el('summary', { text: 'Output schema' }), el('pre', { text: pretty(definition.outputSchema) }))
          : '',
        el('details', {}, el('summary', { text: 'As each provider takes it' }), format, shown),
      );
    }),
  );
}

async function renderCost() {
  const format = $('#cost-format', HTMLSelectElement).value;
  const window = Number($('#cost-window', HTMLInputElement).value) || '';
  /** @type {ContextAnswer} */
  const { report, window: fit } = await getJson(`/api/context?format=${encodeURIComponent(format)}&window=${window}`);
  const most = Math.max(1, ...report.tools.map((tool) => tool.total.tokens));
  /** @type {(name: string, cost: { tokens: number, bytes: number }, share: number, extra?: Record<string, string>) => HTMLElement} */
  const row = (name, cost, share, extra = {}) =>
    el(
      'div',
      { class: 'chart-row', ...extra },
      el('span', { text: name }),
      el('div', { class: 'bar', style: { width: `${(share * 100).toFixed(1)}%` } }),
      el('span', { 'data-tokens': cost.tokens, text: `${cost.tokens} tokens, ${cost.bytes} bytes` }),
    );
  $('#cost-chart').replaceChildren(
    el('p', { class: 'hint', text: `${report.format} format, counted with ${report.tokenizer}` }),
    ...report.tools.map((tool) => row(tool.name, tool.total, tool.total.tokens / most, { 'data-cost-tool': tool.name })),
    row('total', report.total, fit ? Math.min(1, report.total.tokens / fit.contextWindow) : 1, {
      class: 'chart-row chart-total',
      'data-cost-total': '',
    }),
  );
  if (!fit) {
    $('#cost-window-note').replaceChildren();
    return;
  }
  const share = ((report.total.tokens / fit.contextWindow) * 100).toFixed(2);
  const search = fit.decision.deferred
    ? `Tool search (exposure "auto") would defer them: up front goes ${fit.upFront.tools.join(', ')} for ${fit.upFront.total.tokens} tokens.`
    : `Tool search (exposure "auto") would defer nothing: they are under ${fit.decision.threshold} tokens, its share of the window.`;
  $('#cost-window-note').textContent = `All definitions take ${share}% of a ${fit.contextWindow}-token context window. ${search}`;
}

async function renderTools() {
  /** @type {ToolsAnswer} */
  const { tools, formats } = await getJson('/api/tools');
  state.tools = tools;
  $('#cost-format', HTMLSelectElement).replaceChildren(...formats.context.map((f) => el('option', { text: f })));
  $('#try-format', HTMLSelectElement).replaceChildren(...formats.tools.map((f) => el('option', { text: f })));
  $('#try-tool', HTMLSelectElement).replaceChildren(...tools.map((tool) => el('option', { text: tool.definition.name })));
  renderToolList();
  renderTryForm();
  await renderCost();
}

// Try a tool --------------------------------------------------------------------------------

/** @type {import('./form.js').Control | undefined} */
let form;
/** @type {{ controller: AbortController, callId: string | undefined } | undefined} */
let running;

function chosenTool() {
  return state.tools.find((tool) => tool.definition.name === $('#try-tool', HTMLSelectElement).value);
}

function renderTryForm() {
  const tool = chosenTool();
  if (!tool) return;
  $('#try-description').textContent = tool.definition.description + (tool.approval ? ` (needs approval: ${tool.approval})` : '');
  form = inputForm(tool.definition.inputSchema);
  $('#try-form').replaceChildren(form.element);
  $('#try-json', HTMLTextAreaElement).value = pretty(form.read());
  $('#try-outcome').replaceChildren();
  $('#try-progress').replaceChildren();
}

/** The input to send: the JSON box's text as it is when open, else what the form reads. */
function readInput() {
  if ($('#try-json-box', HTMLDetailsElement).open) return JSON.parse($('#try-json', HTMLTextAreaElement).value);
  return form?.read();
}

/**
 * @param {ToolView} tool
 * @param {unknown} input
 * @returns {Promise<boolean>} whether the person chose to run it
 */
function confirmCall(tool, input) {
  const dialog = $('#confirm', HTMLDialogElement);
  $('#confirm-text').textContent = `${tool.definition.name} needs approval (it is ${tool.approval}). Run it with this input?`;
  $('#confirm-input').textContent = pretty(input);
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'run'), { once: true }));
}

/** @param {number} value */
const ms = (value) => `${Number(value).toFixed(1)} ms`;

/**
 * @param {Outcome} outcome
 * @param {unknown} model
 */
function showOutcome(outcome, model) {
  const code = outcome.ok ? 'ok' : outcome.error.code;
  const body = outcome.ok
    ? el('pre', { 'data-output': '', text: typeof outcome.output === 'string' ? outcome.output : pretty(outcome.output) })
    : el('p', { class: 'error', 'data-error': '', text: outcome.error.message });
  const parts = outcome.ok && outcome.parts ? outcome.parts : [];
  const partIssues = outcome.ok && outcome.partIssues ? outcome.partIssues : [];
  $('#try-outcome').replaceChildren(
    el('h3', { class: outcome.ok ? 'ok' : 'bad', 'data-code': code, text: `${code} in ${ms(outcome.durationMs)}` }),
    body,
    parts.length ? el('div', { class: 'parts', 'data-parts': parts.length }, parts.map(partView)) : '',
    partIssues.length
      ? el(
          'ul',
          { class: 'error' },
          partIssues.map((issue) => el('li', { text: `part left out: ${issue.message}` })),
        )
      : '',
    el('details', {}, el('summary', { text: 'What the model reads' }), el('pre', { 'data-model': '', text: withoutBytes(model, parts) })),
    el('details', {}, el('summary', { text: 'The whole outcome' }), el('pre', { text: withoutBytes(outcome, parts) })),
  );
}

/** One progress report: a bar when it says its total, and its message. */
/** @param {Progress} progress */
function showProgress(progress) {
  const { total, message } = progress;
  const amount = total ? `${progress.progress} of ${total}` : String(progress.progress);
  $('#try-progress').replaceChildren(
    el(
      'li',
      { 'data-progress': progress.progress },
      total ? el('progress', { value: progress.progress, max: total }) : '',
      ` ${amount}${message ? `: ${message}` : ''}`,
    ),
  );
}

/** Ask the server to abort the running call; its stream then ends with the aborted outcome. */
async function cancelCall() {
  const call = running;
  if (!call) return;
  $('#try-cancel', HTMLButtonElement).disabled = true;
  const asked = call.callId
    ? await fetch('/api/cancel', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ callId: call.callId }),
      }).catch(() => undefined)
    : undefined;
  // A call that ended meanwhile answers 404 and has its outcome in its stream; if the server
  // could not be asked at all, closing the stream cancels the call.
  if (!asked || (!asked.ok && asked.status !== 404)) call.controller.abort();
}

/**
 * The call's answer, line by line as it comes.
 * @param {Response} response
 * @param {NonNullable<typeof running>} call
 */
async function readCall(response, call) {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) {
      /** @type {CallLine} */
      const message = JSON.parse(line);
      if (message.type === 'start') call.callId = message.callId;
      else if (message.type === 'progress') showProgress(message.progress);
      else if (message.type === 'outcome') showOutcome(message.outcome, message.model);
    }
  }
}

async function callTool() {
  const tool = chosenTool();
  if (!tool) return;
  let input;
  try {
    input = readInput();
  } catch (error) {
    $('#try-outcome').replaceChildren(el('p', { class: 'error', text: `The input is not valid JSON: ${messageOf(error)}` }));
    return;
  }
  const confirmed = tool.approval ? await confirmCall(tool, input) : false;
  if (tool.approval && !confirmed) {
    $('#try-outcome').replaceChildren(el('p', { text: 'Not run: you did not confirm it.' }));
    return;
  }
  /** @type {NonNullable<typeof running>} */
  const call = { controller: new AbortController(), callId: undefined };
  running = call;
  $('#try-call', HTMLButtonElement).disabled = true;
  $('#try-cancel', HTMLButtonElement).disabled = false;
  $('#try-progress').replaceChildren();
  $('#try-outcome').replaceChildren(el('p', { text: 'Running…' }));
  try {
    const response = await fetch('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: tool.definition.name, input, confirmed, format: $('#try-format', HTMLSelectElement).value }),
      signal: call.controller.signal,
    });
    if (!response.ok) throw new Error((await response.json()).error);
    await readCall(response, call);
  } catch (error) {
    const text = call.controller.signal.aborted ? 'Cancelled: the call was stopped.' : `The call could not be made: ${messageOf(error)}`;
    $('#try-outcome').replaceChildren(el('p', { class: 'error', text }));
  } finally {
    running = undefined;
    $('#try-call', HTMLButtonElement).disabled = false;
    $('#try-cancel', HTMLButtonElement).disabled = true;
  }
}

// Search ------------------------------------------------------------------------------------

// Each ranker the search API names is a column: a ranker added there shows here with no change to the page.
/** @param {number | undefined} score */
const scoreText = (score) => (typeof score === 'number' ? score.toFixed(3) : '-');

/** @param {SubmitEvent} event */
async function search(event) {
  event.preventDefault();
  const query = $('#search-query', HTMLInputElement).value;
  /** @type {SearchAnswer} */
  const { rankers, hits } = await getJson(`/api/search?q=${encodeURIComponent(query)}`);
  const byName = new Map(state.tools.map((tool) => [tool.definition.name, tool.definition]));
  $('#search-hits').replaceChildren(
    el(
      'tr',
      {},
      ['#', 'tool', ...rankers, 'description'].map((t) => el('th', { text: t })),
    ),
    ...hits.map((hit, index) =>
      el(
        'tr',
        { 'data-hit': hit.name },
        el('td', { text: index + 1 }),
        el('td', { text: hit.name }),
        ...rankers.map((ranker) => el('td', { 'data-score': ranker, text: scoreText(hit.scores[ranker]) })),
        el('td', { text: byName.get(hit.name)?.description ?? '' }),
      ),
    ),
  );
  if (hits.length === 0)
    $('#search-hits').append(el('tr', {}, el('td', { colspan: rankers.length + 3, text: `No tool matched "${query}".` })));
}

// Transcripts -------------------------------------------------------------------------------

/**
 * One call of a transcript, put together from its events.
 * @typedef {{ callId: string, name: string, progress: unknown[], input?: unknown, at?: number, endAt?: number, outcome?: Outcome }} TranscriptCall
 */

/** @type {{ calls: TranscriptCall[], problems: string[] }} */
const transcript = { calls: [], problems: [] };

/** The calls of a transcript by call id, in the order they started; lines it cannot read are counted. */
/**
 * @param {string} text
 * @returns {{ calls: TranscriptCall[], problems: string[] }}
 */
function readTranscript(text) {
  /** @type {Map<string, TranscriptCall>} */
  const calls = new Map();
  /** @type {string[]} */
  const problems = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    /** @type {any} a line written by toolshed call --transcript, or anything else in the file */
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      problems.push(`line ${index + 1} is not JSON`);
      return;
    }
    if (!event.callId) return;
    /** @type {TranscriptCall} */
    const call = calls.get(event.callId) ?? { callId: event.callId, name: event.name, progress: [] };
    calls.set(event.callId, call);
    if (event.type === 'call.start') Object.assign(call, { input: event.input, at: event.at });
    else if (event.type === 'call.progress') call.progress.push(event.progress);
    else if (event.type === 'call.end') Object.assign(call, { outcome: event.outcome, endAt: event.at, at: call.at ?? event.at });
  });
  return { calls: [...calls.values()], problems };
}

/** @param {TranscriptCall} call */
const codeOf = (call) => (call.outcome ? (call.outcome.ok ? 'ok' : call.outcome.error.code) : 'unfinished');
/** @param {TranscriptCall} call */
const durationOf = (call) =>
  call.outcome?.durationMs ?? (call.endAt !== undefined && call.at !== undefined ? call.endAt - call.at : undefined);

function renderTranscript() {
  const tool = $('#transcript-tool', HTMLSelectElement).value;
  const code = $('#transcript-outcome', HTMLSelectElement).value;
  const shown = transcript.calls.filter((call) => (!tool || call.name === tool) && (!code || codeOf(call) === code));
  const start = Math.min(...transcript.calls.map((call) => call.at ?? Infinity));
  const end = Math.max(...transcript.calls.map((call) => (call.at ?? 0) + (durationOf(call) ?? 0)));
  const span = Math.max(1, end - start);
  $('#transcript-summary').textContent =
    `${shown.length} of ${transcript.calls.length} calls` +
    (transcript.problems.length ? `; skipped: ${transcript.problems.join(', ')}` : '');
  $('#transcript-calls').replaceChildren(
    ...shown.map((call) => {
      const duration = durationOf(call);
      const left = (((call.at ?? start) - start) / span) * 50;
      const width = Math.max(0.5, ((duration ?? 0) / span) * 50);
      const result = call.outcome?.ok ? call.outcome.output : call.outcome?.error;
      return el(
        'li',
        { 'data-call': call.callId, 'data-call-tool': call.name, 'data-call-code': codeOf(call), class: call.outcome?.ok ? '' : 'failed' },
        el('span', { class: 'span', style: { 'margin-left': `${left.toFixed(1)}%`, width: `${width.toFixed(1)}%` } }),
        ' ',
        el('strong', { text: call.name }),
        ` ${codeOf(call)}`,
        duration !== undefined ? ` in ${Number(duration).toFixed(1)} ms` : '',
        call.at ? el('span', { class: 'hint', text: ` at ${new Date(call.at).toISOString()}` }) : '',
        el(
          'details',
          {},
          el('summary', { text: 'input and result' }),
          el('pre', { text: `input: ${pretty(call.input)}\n\nresult: ${pretty(result)}` }),
        ),
      );
    }),
  );
}

async function openTranscript() {
  const file = $('#transcript-file', HTMLInputElement).files?.[0];
  if (!file) return;
  Object.assign(transcript, readTranscript(await file.text()));
  /** @param {string[]} values */
  const options = (values) => [
    el('option', { value: '', text: 'all' }),
    ...[...new Set(values)].sort().map((v) => el('option', { text: v })),
  ];
  $('#transcript-tool', HTMLSelectElement).replaceChildren(...options(transcript.calls.map((call) => call.name)));
  $('#transcript-outcome', HTMLSelectElement).replaceChildren(...options(transcript.calls.map(codeOf)));
  renderTranscript();
}

// Start -------------------------------------------------------------------------------------

/** @param {string} where */
function failed(where) {
  /** @param {unknown} error */
  return (error) => $(where).prepend(el('p', { class: 'error', text: `Could not load: ${messageOf(error)}` }));
}

for (const button of document.querySelectorAll('nav button'))
  button.addEventListener('click', () => showView(button.getAttribute('data-view') ?? ''));
$('#cost-format', HTMLSelectElement).addEventListener('change', () => renderCost().catch(failed('#cost-chart')));
$('#cost-window', HTMLInputElement).addEventListener('change', () => renderCost().catch(failed('#cost-chart')));
$('#try-tool', HTMLSelectElement).addEventListener('change', renderTryForm);
$('#try-call', HTMLButtonElement).addEventListener('click', callTool);
$('#try-cancel', HTMLButtonElement).addEventListener('click', cancelCall);
$('#search-form').addEventListener('submit', (event) => search(event).catch(failed('#search')));
$('#transcript-file', HTMLInputElement).addEventListener('change', () => openTranscript().catch(failed('#transcripts')));
$('#transcript-tool', HTMLSelectElement).addEventListener('change', renderTranscript);
$('#transcript-outcome', HTMLSelectElement).addEventListener('change', renderTranscript);
renderPlugins().catch(failed('#plugins'));
renderTools()
  .then(() => document.body.setAttribute('data-ready', ''))
  .catch(failed('#tools'));
