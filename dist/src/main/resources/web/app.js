'use strict';
// Runnel's dashboard: plain JS over the REST API, no build step. Routes: #/ (job list), #/jobs/<jid> (a job).
// Every view re-renders from the API once a second. DOM is built with createElement/textContent only, so no
// field of the API can inject markup.

const POLL_MILLIS = 1000;
const SVG_NS = 'http://www.w3.org/2000/svg';
const TOKEN_KEY = 'runnel.token';
let pollTimer = null;
const openExceptions = new Set();  // which stack traces the user opened, kept across re-renders
let generation = 0;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

class Unauthorized extends Error {}

async function api(path, options) {
  const headers = {};
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers['Authorization'] = 'Bearer ' + token;
  const response = await fetch(path, Object.assign({headers: headers}, options || {}));
  if (response.status === 401) throw new Unauthorized('an access token is needed');
  const body = await response.json();
  if (!response.ok) throw new Error((body.errors || [response.statusText]).join('; '));
  return body;
}

function showError(e) {
  const box = document.getElementById('error');
  const form = document.getElementById('token-form');
  if (e instanceof Unauthorized) {
    form.hidden = false;
    box.hidden = true;
  } else {
    box.hidden = false;
    box.textContent = String(e.message || e);
  }
}

function clearError() {
  document.getElementById('error').hidden = true;
  document.getElementById('token-form').hidden = true;
}

function rate(n) {
  if (n === undefined || n === null) return '-';
  return n >= 1000 ? (n / 1000).toFixed(1) + 'k/s' : n.toFixed(n < 10 ? 1 : 0) + '/s';
}

function time(ms) {
  return ms > 0 ? new Date(ms).toLocaleString() : '-';
}

function duration(ms) {
  if (ms < 0) return '-';
  const s = Math.floor(ms / 1000);
  return s < 60 ? s + 's' : Math.floor(s / 60) + 'm ' + (s % 60) + 's';
}

// ------------------------------------------------------------------ job list

function showCluster(overview) {
  document.getElementById('cluster').textContent = `${overview.taskmanagers} TaskManagers, `
      + `${overview['slots-available']}/${overview['slots-total']} slots free, ${overview['jobs-running']} running`;
}

async function renderJobList(view) {
  const [overview, jobs] = await Promise.all([api('/overview'), api('/jobs/overview')]);
  showCluster(overview);
  const rows = jobs.jobs.map(j => el('tr', {'class': 'job', 'data-job-id': j.jid},
      el('td', {}, el('a', {href: '#/jobs/' + j.jid}, j.name)),
      el('td', {'class': 'state'}, j.state),
      el('td', {}, time(j['start-time'])),
      el('td', {'class': 'num'}, duration(j.duration)),
      el('td', {'class': 'num'}, `${j.tasks.running}/${j.tasks.total}`),
      el('td', {}, j.jid)));
  view.replaceChildren(el('h1', {}, 'Jobs'), rows.length === 0 ? el('p', {}, 'No jobs yet.')
      : el('table', {id: 'jobs'}, el('tr', {}, ...['Name', 'State', 'Started', 'Duration', 'Running tasks', 'Job id']
          .map(h => el('th', {}, h))), ...rows));
}

// ------------------------------------------------------------------ job page

async function renderJob(view, jid) {
  const job = await api('/jobs/' + jid);
  const [overview, checkpoints, exceptions, backpressure] = await Promise.all([
    api('/overview'),
    api(`/jobs/${jid}/checkpoints`).catch(() => null),
    api(`/jobs/${jid}/exceptions`).catch(() => null),
    Promise.all(job.vertices.map(v => api(`/jobs/${jid}/vertices/${v.id}/backpressure`).catch(() => null)))]);
  showCluster(overview);
  const terminal = ['FINISHED', 'FAILED', 'CANCELED', 'SUSPENDED'].includes(job.state);
  const cancel = terminal ? '' : el('button', {id: 'cancel'}, 'Cancel job');
  if (!terminal) {
    cancel.addEventListener('click', () => api('/jobs/' + jid + '?mode=cancel', {method: 'PATCH'}).catch(showError));
  }
  const sentence = bottleneckSentence(job.vertices, job.edges);
  view.replaceChildren(
      el('p', {id: 'bottleneck', 'class': findBottleneck(job.vertices, job.edges) ? 'found' : 'none'}, sentence),
      el('h1', {}, job.name, ' ', el('span', {'class': 'state', id: 'job-state'}, job.state), ' ', cancel),
      el('div', {}, `Job ${job.jid}, started ${time(job['start-time'])}, running ${duration(job.duration)}`),
      el('h2', {}, 'Graph'), graph(job),
      el('h2', {}, 'Vertices'), vertexTable(job, backpressure),
      el('h2', {}, 'Checkpoints'), checkpointView(checkpoints),
      el('h2', {}, 'Exceptions'), exceptionView(exceptions));
}

// Sources in the first column; every other vertex one column right of its furthest input.
function layers(job) {
  const layer = new Map(job.vertices.map(v => [v.id, 0]));
  for (let round = 0; round < job.vertices.length; round++) {
    for (const e of job.edges) {
      if (layer.has(e.source) && layer.has(e.target)) {
        layer.set(e.target, Math.max(layer.get(e.target), layer.get(e.source) + 1));
      }
    }
  }
  return layer;
}

function fill(v) {
  // Flink's colours: backpressured dark, busy red, idle blue
  if (v.backPressuredRatio >= 0.5) return '#8a8f98';
  const busy = Math.min(1, Math.max(0, v.busyRatio));
  return `hsl(${Math.round(210 - 210 * busy)}, 70%, ${Math.round(88 - 18 * busy)}%)`;
}

function graph(job) {
  const W = 230, GAP_X = 170, GAP_Y = 30, LINE = 16;
  const layer = layers(job);
  const rowsPerLayer = new Map();
  const pos = new Map();
  const height = v => 4 * LINE + v.operators.length * LINE + 12;
  for (const v of job.vertices) {
    const l = layer.get(v.id);
    const y = rowsPerLayer.get(l) || 20;
    pos.set(v.id, {x: 20 + l * (W + GAP_X), y: y, h: height(v)});
    rowsPerLayer.set(l, y + height(v) + GAP_Y);
  }
  const width = 40 + (Math.max(0, ...layer.values()) + 1) * (W + GAP_X) - GAP_X;
  const tall = Math.max(100, ...rowsPerLayer.values());
  const root = svg('svg', {id: 'graph', width: width, height: tall, viewBox: `0 0 ${width} ${tall}`});
  for (const e of job.edges) {
    const a = pos.get(e.source), b = pos.get(e.target);
    if (!a || !b) continue;
    const x1 = a.x + W, y1 = a.y + a.h / 2, x2 = b.x, y2 = b.y + b.h / 2;
    const g = svg('g', {'class': 'edge', 'data-source': e.source, 'data-target': e.target});
    g.append(svg('path', {d: `M${x1},${y1} C${x1 + 40},${y1} ${x2 - 40},${y2} ${x2},${y2}`,
      'marker-end': 'url(#arrow)'}));
    g.append(svg('text', {'class': 'edge-label', x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 8, 'text-anchor': 'middle'},
        `${e.partitioner} · ${e.pattern}`));
    root.append(g);
  }
  const defs = svg('defs');
  const marker = svg('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7,
    markerHeight: 7, orient: 'auto-start-reverse'});
  marker.append(svg('path', {d: 'M0,0 L10,5 L0,10 z', fill: '#667'}));
  defs.append(marker);
  root.prepend(defs);
  for (const v of job.vertices) {
    const p = pos.get(v.id);
    const g = svg('g', {'class': 'vertex', 'data-vertex-id': v.id, transform: `translate(${p.x},${p.y})`});
    g.append(svg('rect', {width: W, height: p.h, fill: fill(v)}));
    let y = LINE + 2;
    g.append(svg('text', {'class': 'vertex-name', x: 8, y: y}, v.name));
    for (const op of v.operators) {
      y += LINE;
      g.append(svg('text', {'class': 'operator', x: 16, y: y}, '▸ ' + op));
    }
    y += LINE;
    g.append(svg('text', {'class': 'stats', x: 8, y: y}, `parallelism ${v.parallelism} · ${v.status}`));
    y += LINE;
    g.append(svg('text', {'class': 'stats rates', x: 8, y: y},
        `in ${rate(v.recordsInPerSecond)} · out ${rate(v.recordsOutPerSecond)}`));
    y += LINE;
    g.append(svg('text', {'class': 'stats ratios', x: 8, y: y},
        `busy ${percent(v.busyRatio)}% · backpressured ${percent(v.backPressuredRatio)}%`));
    root.append(g);
  }
  return root;
}

function vertexTable(job, backpressure) {
  const head = el('tr', {}, ...['Vertex', 'Parallelism', 'Status', 'Records in', 'Records out', 'In/s', 'Out/s',
    'Busy', 'Backpressured', 'Level'].map(h => el('th', {}, h)));
  const rows = job.vertices.map((v, i) => el('tr', {'class': 'vertex-row', 'data-vertex-id': v.id},
      el('td', {}, v.name), el('td', {'class': 'num'}, v.parallelism), el('td', {}, v.status),
      el('td', {'class': 'num'}, v.metrics['read-records']), el('td', {'class': 'num'}, v.metrics['write-records']),
      el('td', {'class': 'num'}, rate(v.recordsInPerSecond)), el('td', {'class': 'num'}, rate(v.recordsOutPerSecond)),
      el('td', {'class': 'num'}, percent(v.busyRatio) + '%'),
      el('td', {'class': 'num'}, percent(v.backPressuredRatio) + '%'),
      el('td', {}, backpressure[i] ? backpressure[i]['backpressure-level'] : '-')));
  return el('table', {id: 'vertices'}, head, ...rows);
}

function checkpointView(stats) {
  if (!stats) return el('p', {}, 'No checkpoint statistics.');
  const c = stats.counts;
  const summary = el('p', {id: 'checkpoint-counts'}, `${c.completed} completed, ${c.in_progress} in progress, `
      + `${c.failed} failed, ${c.restored} restored`);
  if (stats.history.length === 0) return summary;
  const head = el('tr', {}, ...['Id', 'Status', 'Type', 'Triggered', 'Duration', 'State size', 'Acknowledged']
      .map(h => el('th', {}, h)));
  const rows = stats.history.map(h => el('tr', {'class': 'checkpoint'},
      el('td', {'class': 'num'}, h.id), el('td', {}, h.status), el('td', {}, h.is_savepoint ? 'savepoint' : 'checkpoint'),
      el('td', {}, time(h.trigger_timestamp)), el('td', {'class': 'num'}, h.end_to_end_duration + ' ms'),
      el('td', {'class': 'num'}, h.state_size), el('td', {'class': 'num'},
          `${h.num_acknowledged_subtasks}/${h.num_subtasks}`)));
  return el('div', {}, summary, el('table', {id: 'checkpoints'}, head, ...rows));
}

function exceptionView(exceptions) {
  const entries = exceptions ? exceptions.exceptionHistory.entries : [];
  if (entries.length === 0) return el('p', {id: 'no-exceptions'}, 'No exceptions.');
  return el('div', {id: 'exceptions'}, ...entries.map(e => {
    const key = `${e.timestamp}/${e.exceptionName}/${e.taskName}`;
    const details = el('details', openExceptions.has(key) ? {'class': 'exception', open: ''} : {'class': 'exception'},
        el('summary', {}, `${time(e.timestamp)} ${e.exceptionName}${e.taskName ? ' in ' + e.taskName : ''}`),
        el('pre', {}, e.stacktrace || ''));
    details.addEventListener('toggle', () => details.open ? openExceptions.add(key) : openExceptions.delete(key));
    return details;
  }));
}

// ------------------------------------------------------------------ routing and polling

async function render() {
  const mine = ++generation;
  clearTimeout(pollTimer);
  const view = document.getElementById('view');
  const match = location.hash.match(/^#\/jobs\/([0-9a-fA-F]{32})$/);
  try {
    if (match) await renderJob(view, match[1]); else await renderJobList(view);
    clearError();
  } catch (e) {
    showError(e);
  }
  if (mine === generation) pollTimer = setTimeout(render, POLL_MILLIS);
}

document.getElementById('token-form').addEventListener('submit', event => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, document.getElementById('token-input').value);
  render();
});
window.addEventListener('hashchange', render);
render();
