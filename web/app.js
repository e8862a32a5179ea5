// Canju's collection browser. Plain JS, no framework, no network beyond the
// server it came from. The server computes everything about the game (FENs,
// notation, tablebase values); this file draws and navigates.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

const state = {
  info: null,
  collections: [],
  list: { collection: null, q: '', material: '', result: '', verdict: '', rules: '', offset: 0, limit: 100 },
  listSeq: 0,
  puzzle: null,
  node: 0,
  flipped: false,
  probes: new Map(),  // fen -> probe reply
  solves: new Map(),  // fen -> solve reply
  solving: null,      // the fen being solved
  solveError: null,   // { fen, message } of the last failed request (not kept: it may be "busy")
};

// ---------------------------------------------------------------- helpers

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  let body;
  try {
    body = await res.json();
  } catch (e) {
    throw new Error(`${path}: HTTP ${res.status}`);
  }
  if (!res.ok) throw new Error(body.error || `${path}: HTTP ${res.status}`);
  return body;
}

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
}

const CLAIM_ZH = { win: '胜', draw: '和', loss: '负', unknown: '?' };
const VERDICT_LABEL = {
  confirmed: '✔ confirmed 正确',
  refuted: '✘ refuted 有误',
  unproven: '? unproven 未证',
  none: '— not verified',
};

function sideLabel(variantInfo, color) {
  if (!variantInfo) return color;
  const zh = { red: '红', black: '黑', white: '白' }[color] || color;
  return variantInfo.style === 'xiangqi' ? zh : color;
}

function toMoveLabel(variantInfo, color) {
  if (variantInfo && variantInfo.style === 'xiangqi') return `${sideLabel(variantInfo, color)}方走 (${color} to move)`;
  return `${color} to move`;
}

const plies = (n) => `${n} ${n === 1 ? 'ply' : 'plies'}`;

// "红先胜" style for Xiangqi, "white to move: win" otherwise.
function claimLabel(claim, variantInfo, toMove) {
  if (claim === 'unknown') return 'not stated';
  if (variantInfo && variantInfo.style === 'xiangqi' && toMove)
    return `${sideLabel(variantInfo, toMove)}先${CLAIM_ZH[claim]} (${claim})`;
  return toMove ? `${toMove} to move: ${claim}` : claim;
}

function setReady(what) {
  document.body.dataset.ready = what;
}

// ---------------------------------------------------------------- routing

function route() {
  showError('');
  const parts = (location.hash.replace(/^#/, '') || '/').split('/');
  if (parts[1] === 'p' && parts[2]) {
    showPuzzle(parts[2], parts[3] ? parseInt(parts[3], 10) || 0 : 0);
  } else if (parts[1] === 'c' && parts[2] !== undefined) {
    showList(decodeURIComponent(parts[2]));
  } else {
    showList('');
  }
}

function show(view) {
  $('list-view').hidden = view !== 'list';
  $('puzzle-view').hidden = view !== 'puzzle';
}

// ---------------------------------------------------------------- collections

async function loadCollections() {
  const reply = await api('/api/collections');
  state.collections = reply.collections;
  const ul = $('collections');
  ul.textContent = '';
  ul.append(el('li', {}, el('a', { href: '#/', 'data-collection': '' }, 'All puzzles 全部',
                               el('span', { class: 'count', text: String(reply.total) }))));
  for (const c of reply.collections) {
    ul.append(el('li', {}, el('a', { href: '#/c/' + encodeURIComponent(c.name), 'data-collection': c.name },
                                 c.name, el('span', { class: 'count', text: String(c.count) }))));
  }
  markCollection();
}

function markCollection() {
  const listing = !$('list-view').hidden;
  for (const a of document.querySelectorAll('#collections a'))
    a.classList.toggle('active', listing && a.dataset.collection === state.list.collection);
}

// ---------------------------------------------------------------- puzzle list

async function showList(collection) {
  show('list');
  if (state.list.collection !== collection) {
    Object.assign(state.list, { collection, q: '', material: '', result: '', verdict: '', rules: '', offset: 0 });
    $('search').value = '';
    $('filter-material').value = '';
    $('filter-result').value = '';
    $('filter-verdict').value = '';
    $('filter-rules').value = '';
  }
  $('list-title').textContent = collection || 'All puzzles 全部';
  markCollection();
  await loadList();
}

async function loadList() {
  const l = state.list;
  const q = new URLSearchParams();
  if (l.collection) q.set('collection', l.collection);
  for (const k of ['q', 'material', 'result', 'verdict', 'rules']) if (l[k]) q.set(k, l[k]);
  q.set('offset', l.offset);
  q.set('limit', l.limit);
  const seq = ++state.listSeq;
  setReady('loading');
  let reply;
  try {
    reply = await api('/api/puzzles?' + q.toString());
  } catch (e) {
    showError(e.message);
    return;
  }
  if (seq !== state.listSeq) return;  // a newer request is on its way
  fillMaterialFilter(reply.facets.material);
  fillRulesFilter(reply.facets.rules || [], l.rules);
  const tbody = document.querySelector('#puzzles tbody');
  tbody.textContent = '';
  for (const p of reply.puzzles) {
    const v = state.info && state.info.variants[p.variant];
    const tr = el('tr', { 'data-id': p.id, tabindex: 0 },
      el('td', { class: 'num', text: p.number ? String(p.number) : '' }),
      el('td', {}, el('a', { href: '#/p/' + p.id, text: p.title || '(untitled)' }),
         p.collection !== l.collection ? el('span', { class: 'muted', text: ' · ' + p.collection }) : null,
         p.fen_problem ? el('span', { class: 'badge bad', title: p.fen_problem, text: 'bad FEN' }) : null),
      el('td', { class: 'material', text: p.material }),
      el('td', p.claimed === 'unknown' && p.checked
        ? { class: 'muted', title: 'not stated; the claim the verdict checked', text: `(${claimLabel(p.checked, v, null)})` }
        : { text: claimLabel(p.claimed, v, null) }),
      el('td', {}, el('span', { class: 'verdict ' + p.verdict, text: verdictShort(p) }), otherRulesBadge(p)),
      el('td', { class: 'num', text: p.appearances ? String(p.appearances) : '' }));
    tr.addEventListener('click', (ev) => {
      if (ev.target.tagName !== 'A') location.hash = '#/p/' + p.id;
    });
    tr.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') location.hash = '#/p/' + p.id;
    });
    tbody.append(tr);
  }
  if (!reply.puzzles.length)
    tbody.append(el('tr', {}, el('td', { colspan: 6, class: 'muted', text: 'No puzzles match. 无结果' })));
  const from = reply.total ? reply.offset + 1 : 0;
  const to = reply.offset + reply.puzzles.length;
  $('page-info').textContent = `${from}–${to} of ${reply.total}`;
  $('page-prev').disabled = reply.offset === 0;
  $('page-next').disabled = to >= reply.total;
  setReady('list');
}

// Verdicts reached under other rule options (`verify --set`): a badge whose
// tooltip names each set of options and its verdict.
function otherRulesBadge(p) {
  if (!p.other_rules || !p.other_rules.length) return null;
  const lines = p.other_rules.map((o) => `${o.rules.join(', ')}: ${verdictShort(o)}`);
  return el('span', { class: 'badge', title: 'Under other rules 他规则\n' + lines.join('\n'), text: `+${p.other_rules.length} 他规则` });
}

function verdictShort(p) {
  const label = VERDICT_LABEL[p.verdict] || p.verdict;
  // An upper bound from the proof (mate_exact false) reads "≤ N步杀".
  if (p.verdict === 'confirmed' && p.mate_plies > 0)
    return `${label} · ${p.mate_exact === false ? '≤' : ''}${Math.ceil(p.mate_plies / 2)}步杀`;
  return label;
}

// The sets of `verify --set` options verdicts are stored under: listing by
// one shows the verdicts under it in the verdict column. Hidden where the
// collection has none (and none is chosen).
function fillRulesFilter(facet, chosen) {
  const select = $('filter-rules');
  const values = facet.map((f) => f.value);
  if (chosen && !values.includes(chosen)) values.push(chosen);
  select.textContent = '';
  select.append(el('option', { value: '', text: 'Main verdict 主判' }));
  for (const v of values) {
    const f = facet.find((x) => x.value === v);
    select.append(el('option', { value: v, text: `${v.split(';').join(', ')}${f ? ` (${f.count})` : ''}` }));
  }
  select.value = chosen;
  select.hidden = values.length === 0;
}

// The materials of the collection, most frequent first, as suggestions.
function fillMaterialFilter(facet) {
  const list = $('materials');
  list.textContent = '';
  const sorted = facet.filter((f) => f.value).sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  for (const f of sorted.slice(0, 200)) list.append(el('option', { value: f.value, label: `${f.count}×` }));
}

function wireFilters() {
  let timer = null;
  $('search').addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.list.q = $('search').value.trim();
      state.list.offset = 0;
      loadList();
    }, 250);
  });
  for (const [id, key] of [['filter-material', 'material'], ['filter-result', 'result'], ['filter-verdict', 'verdict'], ['filter-rules', 'rules']]) {
    $(id).addEventListener('change', () => {
      state.list[key] = $(id).value.trim();
      state.list.offset = 0;
      loadList();
    });
  }
  $('filters').addEventListener('submit', (e) => e.preventDefault());
  $('page-prev').addEventListener('click', () => {
    state.list.offset = Math.max(0, state.list.offset - state.list.limit);
    loadList();
  });
  $('page-next').addEventListener('click', () => {
    state.list.offset += state.list.limit;
    loadList();
  });
}

// ---------------------------------------------------------------- puzzle

async function showPuzzle(id, node) {
  show('puzzle');
  markCollection();
  setReady('loading');
  if (!state.puzzle || state.puzzle.id !== id) {
    let p;
    try {
      p = await api('/api/puzzle/' + encodeURIComponent(id));
    } catch (e) {
      showError(e.message);
      $('puzzle-heading').textContent = '';
      return;
    }
    state.puzzle = p;
    state.flipped = false;
    renderPuzzleInfo();
    renderMoves();
  }
  const nodes = state.puzzle.tree.nodes;
  setNode(node >= 0 && node < nodes.length && !nodes[node].error ? node : 0);
  setReady('puzzle');
}

function renderPuzzleInfo() {
  const p = state.puzzle;
  const v = p.variant_info;
  const root = p.tree.nodes[0];
  const back = p.collection ? '#/c/' + encodeURIComponent(p.collection) : '#/';
  $('back-link').href = back;
  $('back-link').textContent = '← ' + (p.collection || 'all');
  $('puzzle-heading').textContent = (p.number ? `#${p.number} ` : '') + (p.title || '(untitled)');
  const meta = $('meta');
  meta.textContent = '';
  meta.append(el('h1', { text: p.title || '(untitled)' }));
  const rows = [
    ['Collection 谱集', (p.collection || '') + (p.number ? ` #${p.number}` : '')],
    ['Claimed 结论', claimLabel(p.claimed, v, root && root.to_move)],
    ['Material 子力', p.material],
    ['Variant 棋种', v ? `${v.name_zh} ${v.name}` : p.variant],
  ];
  if (p.author) rows.push(['Author 作者', p.author]);
  for (const [k, val] of Object.entries(p.tags || {})) rows.push([k, val]);
  if (p.source) rows.push(['Source 来源', p.source]);
  rows.push(['Id', p.id]);
  const dl = el('dl', { class: 'meta' });
  for (const [k, val] of rows) dl.append(el('dt', { text: k }), el('dd', { text: val }));
  meta.append(dl);
  if (p.problem) meta.append(el('p', { class: 'badge bad', text: 'Cannot show this position: ' + p.problem }));
  if (p.tree.illegal) meta.append(el('p', { class: 'warn', text: `${p.tree.illegal} move(s) in the book cannot be played (red in the list).` }));
  if (p.tree.truncated) meta.append(el('p', { class: 'warn', text: 'The move tree is very large; only its first part is shown.' }));
  renderVerdict();
  renderAppearances();
  updateTablebaseVisibility();
}

// A cook's re-check (the API's proof_check on each cook): a mark after it.
function cookCheckMark(cook) {
  if (cook.proof_check === 'holds') return ' (re-checked 复核)';
  if (cook.proof_check === 'incomplete') return ' (re-check incomplete)';
  return '';
}

function renderVerdict() {
  const p = state.puzzle;
  const box = $('verdict');
  box.textContent = '';
  box.append(el('h3', { text: 'Solver 验证' }));
  renderOneVerdict(box, p.verdict, true);
  // Verdicts reached under other rule options (`canju verify --set`), each
  // with its "Rules:" line; the one above is under the variant's own rules.
  for (const o of p.other_rules || []) {
    const sub = el('div', { class: 'other-rules' });
    sub.append(el('h4', { text: 'Under other rules 他规则' }));
    renderOneVerdict(sub, o, false);
    box.append(sub);
  }
}

// One verdict into `box`; `main`: the record's main verdict, whose parts
// carry ids (the page's tests and links find them).
function renderOneVerdict(box, v, main) {
  const id = (name) => (main ? name : undefined);
  const head = el('p', {}, el('span', { class: 'verdict ' + v.kind, id: id('verdict-kind'), text: VERDICT_LABEL[v.kind] || v.kind }));
  if (v.kind !== 'none' && v.proven !== 'unknown') head.append(' — proven ' + v.proven);
  if (v.mate_plies > 0) {
    const bound = v.mate_exact === false ? 'at most ' : '';
    head.append(`, mate in ${bound}${Math.ceil(v.mate_plies / 2)} (${plies(v.mate_plies)})`);
    if (v.proof_check === 'holds') head.append(el('span', { id: id('proof-check'), title: 'every defence walked again by an independent search', text: ' · re-checked 复核' }));
    else if (v.proof_check === 'incomplete') head.append(el('span', { id: id('proof-check'), class: 'muted', text: ' · re-check incomplete' }));
  }
  box.append(head);
  if (v.kind === 'none') {
    box.append(el('p', { class: 'muted', text: 'Not verified yet: canju verify checks the claim and the book line.' }));
    return;
  }
  const moveList = (moves) => moves.map((m) => m.text || m.move).join(' ');
  // A line whose length is proved shortest is best play; otherwise it is
  // the proof's (or the book's) winning line.
  const lineLabel = v.mate_exact === true ? 'Best line 主变: ' : 'Winning line 胜线 (not proved best play): ';
  // How the line ends, where it is not in mate (the API's line_end).
  const LINE_END = {
    perpetual_check: ' — ends where the loser\'s checks repeat (perpetual check loses 长将判负)',
    open: ' — stops before mate',
  };
  if (v.pv.length) box.append(el('p', { id: id('line') }, el('b', { text: lineLabel }), moveList(v.pv), LINE_END[v.line_end] || ''));
  if (v.cooks.length) {
    box.append(el('p', { id: id('cooks') }, el('b', { text: 'Cooks 多解: ' }),
                  'other winning first moves: ' + v.cooks.map((m) => (m.text || m.move) + cookCheckMark(m)).join('、')));
  } else if (v.kind === 'confirmed' && v.cooks_scope === 'none') {
    box.append(el('p', { id: id('cooks'), class: 'muted', text: 'Other first moves were not searched (the proof followed the book\'s line).' }));
  }
  if (v.checked_from) {
    box.append(el('p', { id: id('checked') }, el('b', { text: 'Claim checked: ' }), `${v.checked} (${v.checked_from})`));
  }
  if (v.reason) box.append(el('p', {}, el('b', { text: 'Why: ' }), v.reason));
  // Options the verdict was reached under (`verify --set`), as `puzzles show` prints them.
  if (v.rules && v.rules.length) box.append(el('p', {}, el('b', { text: 'Rules: ' }), v.rules.join(', ')));
  if (v.book_notes.length) {
    const ul = el('ul', { class: 'notes' });
    for (const n of v.book_notes) ul.append(el('li', { text: n }));
    box.append(el('b', { text: 'Book line 原谱: ' }), ul);
  }
  const details = [];
  if (v.solver) details.push('solver: ' + v.solver);
  if (v.nodes) details.push(`${v.nodes.toLocaleString()} nodes`);
  if (v.seconds) details.push(`${v.seconds.toFixed(1)} s`);
  if (v.verified_at) details.push(new Date(v.verified_at * 1000).toLocaleString());
  if (details.length) box.append(el('p', { class: 'muted', text: details.join(' · ') }));
}

function renderAppearances() {
  const p = state.puzzle;
  const box = $('appearances');
  box.textContent = '';
  if (!p.appearances.length) return;
  box.append(el('h3', { text: 'Also in 他谱所载' }));
  const ul = el('ul');
  for (const a of p.appearances) {
    ul.append(el('li', {},
      el('a', { href: '#/p/' + a.id, text: `${a.collection}${a.number ? ' #' + a.number : ''} ${a.title}` }),
      el('span', { class: 'muted', text: ` (${a.relation}; ${a.claimed}; ${VERDICT_LABEL[a.verdict] || a.verdict})` })));
  }
  box.append(ul);
}

// The move list: the main line inline, each alternative to a move as an
// indented block right after it (like a PGN viewer).
function renderMoves() {
  const box = $('moves');
  box.textContent = '';
  const nodes = state.puzzle.tree.nodes;
  if (!nodes.length) return;
  if (nodes[0].comment) box.append(el('div', { class: 'comment', text: nodes[0].comment }));
  if (!nodes[0].children.length) {
    box.append(el('p', { class: 'muted', text: 'No moves recorded.' }));
    return;
  }
  const line = el('div', { class: 'line main' });
  renderLine(line, 0, nodes[0].children[0]);
  box.append(line);
}

function renderLine(container, parentId, firstId) {
  const nodes = state.puzzle.tree.nodes;
  let needNumber = true;
  let parent = parentId;
  let id = firstId;
  while (id !== undefined) {
    const n = nodes[id];
    container.append(moveSpan(n, needNumber), ' ');
    needNumber = false;
    if (n.comment) {
      container.append(el('span', { class: 'comment', text: n.comment }), ' ');
      needNumber = true;
    }
    const siblings = nodes[parent].children;
    if (siblings[0] === id && siblings.length > 1) {
      for (const alt of siblings.slice(1)) {
        const v = el('div', { class: 'variation' });
        renderLine(v, parent, alt);
        container.append(v);
      }
      needNumber = true;
    }
    if (n.error) break;
    parent = id;
    id = n.children[0];
  }
}

function moveSpan(n, needNumber) {
  const firstColor = state.puzzle.variant_info ? state.puzzle.variant_info.colors[0] : 'red';
  let number = '';
  if (n.side === firstColor || !n.side) number = `${n.number}. `;
  else if (needNumber) number = `${n.number}… `;
  const span = el('span', { class: 'move' + (n.error ? ' illegal' : ''), 'data-node': n.id, tabindex: -1,
                            title: n.error ? `${n.move}: ${n.error}` : (n.wxf ? `${n.move} · ${n.wxf}` : n.move) },
                  number ? el('span', { class: 'no', text: number }) : null, n.text || n.move);
  span.addEventListener('click', () => {
    if (n.error) showError(`${n.move}: ${n.error}`);
    else setNode(n.id);
  });
  return span;
}

function setNode(id) {
  const p = state.puzzle;
  const nodes = p.tree.nodes;
  if (!nodes.length || id < 0 || id >= nodes.length || nodes[id].error) return;
  state.node = id;
  const n = nodes[id];
  drawBoard($('board'), p.variant_info, n.board, n, state.flipped);
  for (const s of document.querySelectorAll('#moves .move.current')) s.classList.remove('current');
  const span = document.querySelector(`#moves .move[data-node="${id}"]`);
  if (span) {
    span.classList.add('current');
    if (span.scrollIntoView) span.scrollIntoView({ block: 'nearest' });
  }
  $('fen').value = n.fen;
  $('comment').textContent = id === 0 ? '' : n.comment;
  $('comment').hidden = !$('comment').textContent;
  const v = p.variant_info;
  const stateText = { check: 'check 将军', checkmate: 'checkmate 将死', stalemate: 'stalemate 困毙', royal_lost: 'royal piece lost' }[n.state];
  $('position-state').textContent =
    (id === 0 ? 'Start · ' : `${n.number}${n.side === v.colors[0] ? '.' : '…'} ${n.text} · `) +
    toMoveLabel(v, n.to_move) + (stateText ? ` · ${stateText}` : '');
  $('prev').disabled = id === 0;
  $('first').disabled = id === 0;
  const next = playableChild(n);
  $('next').disabled = next === undefined;
  $('last').disabled = next === undefined;
  const hash = `#/p/${p.id}` + (id ? `/${id}` : '');
  if (location.hash !== hash) history.replaceState(null, '', hash);
  document.body.dataset.node = String(id);
  probe(n.fen);
  renderSolve();
}

function playableChild(n) {
  const nodes = state.puzzle.tree.nodes;
  return n.children.find((c) => !nodes[c].error);
}

function step(kind) {
  const p = state.puzzle;
  if (!p || $('puzzle-view').hidden || !p.tree.nodes.length) return;
  const nodes = p.tree.nodes;
  let n = nodes[state.node];
  switch (kind) {
    case 'first': setNode(0); break;
    case 'prev': if (n.parent >= 0) setNode(n.parent); break;
    case 'next': { const c = playableChild(n); if (c !== undefined) setNode(c); break; }
    case 'last': {
      let c;
      while ((c = playableChild(n)) !== undefined) n = nodes[c];
      setNode(n.id);
      break;
    }
    case 'up':
    case 'down': {
      if (n.parent < 0) break;
      const sib = nodes[n.parent].children.filter((c) => !nodes[c].error);
      const i = sib.indexOf(n.id) + (kind === 'down' ? 1 : -1);
      if (i >= 0 && i < sib.length) setNode(sib[i]);
      break;
    }
  }
}

function wirePuzzleControls() {
  $('first').addEventListener('click', () => step('first'));
  $('prev').addEventListener('click', () => step('prev'));
  $('next').addEventListener('click', () => step('next'));
  $('last').addEventListener('click', () => step('last'));
  $('flip').addEventListener('click', flip);
  $('copy-fen').addEventListener('click', copyFen);
  document.addEventListener('keydown', (ev) => {
    if (ev.target.closest && ev.target.closest('input, select, textarea')) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last', ArrowUp: 'up', ArrowDown: 'down' };
    if (keys[ev.key] && !$('puzzle-view').hidden) {
      ev.preventDefault();
      step(keys[ev.key]);
    } else if ((ev.key === 'f' || ev.key === 'F') && !$('puzzle-view').hidden) {
      flip();
    }
  });
}

function flip() {
  state.flipped = !state.flipped;
  document.body.dataset.flipped = String(state.flipped);
  if (state.puzzle) setNode(state.node);
}

async function copyFen() {
  const fen = $('fen').value;
  const button = $('copy-fen');
  const done = (ok) => {
    button.textContent = ok ? 'Copied ✔' : 'Select + Ctrl-C';
    setTimeout(() => { button.textContent = 'Copy FEN'; }, 1500);
  };
  try {
    await navigator.clipboard.writeText(fen);
    done(true);
  } catch (e) {
    // No clipboard permission (plain http, headless): select it for the user.
    $('fen').select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e2) { ok = false; }
    done(ok);
  }
}

// ---------------------------------------------------------------- tablebase

function tablesFor(variant) {
  const t = state.info && state.info.tablebases[variant];
  return t && t.length ? t : null;
}

function updateTablebaseVisibility() {
  $('tablebase').hidden = !(state.puzzle && tablesFor(state.puzzle.variant));
}

async function probe(fen) {
  const p = state.puzzle;
  if (!tablesFor(p.variant)) return;
  const box = $('tablebase');
  let reply = state.probes.get(fen);
  if (!reply) {
    box.classList.add('loading');
    try {
      reply = await api(`/api/probe?variant=${encodeURIComponent(p.variant)}&fen=${encodeURIComponent(fen)}`);
    } catch (e) {
      reply = { available: false, reason: e.message };
    }
    box.classList.remove('loading');
    if (state.probes.size > 500) state.probes.clear();
    state.probes.set(fen, reply);
  }
  const n = p.tree.nodes[state.node];
  if (!n || n.fen !== fen) return;  // the user moved on meanwhile
  box.textContent = '';
  box.append(el('h3', { text: 'Tablebase 残局库' }));
  if (!reply.available) {
    box.append(el('p', { class: 'muted', id: 'tb-value', text: reply.reason }));
    return;
  }
  box.append(el('p', { id: 'tb-value' }, el('span', { class: 'tbv ' + reply.value.wdl, text: reply.value.text }),
                ` — ${toMoveLabel(p.variant_info, n.to_move)}, ${reply.material}`));
  const table = el('table', { class: 'tb-moves', id: 'tb-moves' });
  const childByMove = new Map(n.children.map((c) => [p.tree.nodes[c].move, c]));
  for (const m of reply.moves) {
    const inBook = childByMove.get(m.move);
    const tr = el('tr', { class: inBook !== undefined ? 'in-book' : '' },
      el('td', { class: 'mv', text: m.text }),
      el('td', {}, m.value ? el('span', { class: 'tbv ' + m.value.wdl, text: m.value.text })
                           : el('span', { class: 'muted', text: m.reason || '?' })),
      el('td', { class: 'muted', text: inBook !== undefined ? 'book 谱着' : '' }));
    if (inBook !== undefined) tr.addEventListener('click', () => setNode(inBook));
    table.append(tr);
  }
  box.append(el('div', { class: 'tb-scroll' }, table));
}

// ---------------------------------------------------------------- solver on demand

// The position shown, solved by the server (/api/solve, a few seconds, one
// at a time): what a composer asks after stepping into a line.
const SOLVE_SECONDS = 5;

function renderSolve() {
  const p = state.puzzle;
  const n = p && p.tree.nodes[state.node];
  const box = $('solve');
  box.textContent = '';
  if (!n || !p.variant_info) return;  // a definition-file variant: no board, no solve
  box.append(el('h3', { text: 'Solve this position 求解' }));
  const reply = state.solves.get(n.fen);
  if (!reply) {
    const busy = state.solving !== null;
    box.append(el('p', {},
      el('button', { id: 'solve-button', type: 'button', disabled: busy, onclick: () => solve(n.fen) },
         state.solving === n.fen ? 'Solving…' : `Solve (up to ${SOLVE_SECONDS} s)`),
      busy && state.solving !== n.fen ? el('span', { class: 'muted', text: ' another position is being solved' }) : null));
    if (state.solveError && state.solveError.fen === n.fen)
      box.append(el('p', { id: 'solve-error', class: 'muted', text: state.solveError.message }));
    return;
  }
  const v = p.variant_info;
  const head = el('p', { id: 'solve-result' }, `${toMoveLabel(v, n.to_move)}: `,
                  el('b', { text: { win: 'win 胜', loss: 'loss 负', draw: 'draw 和', unknown: 'undecided 未决' }[reply.result] || reply.result }));
  if (reply.mate_plies !== null && reply.mate_plies >= 0) {
    head.append(`, mate in ${reply.mate_exact ? '' : 'at most '}${Math.ceil(reply.mate_plies / 2)} (${plies(reply.mate_plies)})`);
  }
  if (reply.tables) head.append(el('span', { class: 'muted', text: ' · with the tables' }));
  box.append(head);
  const moveList = (moves) => moves.map((m) => m.text || m.move).join(' ');
  if (reply.pv.length) {
    const LINE_END = { perpetual_check: ' — ends where the loser\'s checks repeat (长将判负)', open: ' — stops before mate' };
    box.append(el('p', { id: 'solve-line' }, el('b', { text: reply.mate_exact ? 'Best line 主变: ' : 'Winning line 胜线: ' }),
                  moveList(reply.pv), LINE_END[reply.line_end] || ''));
  }
  if (reply.winning_first_moves.length > 1) {
    box.append(el('p', { id: 'solve-firsts' }, el('b', { text: 'Winning first moves 胜着: ' }),
                  reply.winning_first_moves.map((m) => m.text || m.move).join('、')));
  }
  if (reply.note) box.append(el('p', { class: 'muted', text: reply.note }));
  box.append(el('p', { class: 'muted', text: `${reply.nodes.toLocaleString()} nodes · ${reply.seconds.toFixed(1)} s` }));
}

async function solve(fen) {
  const p = state.puzzle;
  if (state.solving !== null) return;
  state.solving = fen;
  renderSolve();
  state.solveError = null;
  try {
    const reply = await api(`/api/solve?variant=${encodeURIComponent(p.variant)}&seconds=${SOLVE_SECONDS}&fen=${encodeURIComponent(fen)}`);
    if (state.solves.size > 200) state.solves.clear();
    state.solves.set(fen, reply);
  } catch (e) {
    state.solveError = { fen, message: e.message };
  }
  state.solving = null;
  if (state.puzzle === p) renderSolve();
}

// ---------------------------------------------------------------- board

// Draws `board` (one character per square, top rank first) as SVG: a
// Xiangqi board of points with river and palaces, or a chequered board.
function drawBoard(svg, v, board, node, flipped) {
  svg.textContent = '';
  if (!v || !board) return;
  const F = v.files, R = v.ranks;
  const xq = v.style === 'xiangqi';
  const cell = 52, margin = xq ? 40 : 30;
  const width = xq ? 2 * margin + cell * (F - 1) : margin + cell * F + 10;
  const height = xq ? 2 * margin + cell * (R - 1) : cell * R + margin + 10;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('width', width);
  svg.setAttribute('height', height);
  svg.classList.toggle('xiangqi', xq);
  svg.classList.toggle('square', !xq);
  const col = (f) => (flipped ? F - 1 - f : f);
  const row = (r) => (flipped ? r : R - 1 - r);  // rows count from the top
  // Centre of a square / point.
  const X = (f) => (xq ? margin + col(f) * cell : margin + col(f) * cell + cell / 2);
  const Y = (r) => (xq ? margin + row(r) * cell : 10 + row(r) * cell + cell / 2);
  const squareName = (f, r) => String.fromCharCode(97 + f) + String(r + v.rank_base);

  svg.append(svgEl('rect', { x: 0, y: 0, width, height, class: 'bg' }));
  if (xq) {
    const g = svgEl('g', { class: 'grid' });
    g.append(svgEl('rect', { x: margin - 5, y: margin - 5, width: cell * (F - 1) + 10, height: cell * (R - 1) + 10, class: 'frame' }));
    for (let r = 0; r < R; ++r) g.append(svgEl('line', { x1: X(0), y1: Y(r), x2: X(F - 1), y2: Y(r) }));
    const half = R / 2;
    for (let f = 0; f < F; ++f) {
      if (v.river && f > 0 && f < F - 1) {
        g.append(svgEl('line', { x1: X(f), y1: Y(0), x2: X(f), y2: Y(half - 1) }));
        g.append(svgEl('line', { x1: X(f), y1: Y(half), x2: X(f), y2: Y(R - 1) }));
      } else {
        g.append(svgEl('line', { x1: X(f), y1: Y(0), x2: X(f), y2: Y(R - 1) }));
      }
    }
    for (const p of v.palaces) {
      g.append(svgEl('line', { x1: X(p.file0), y1: Y(p.rank0), x2: X(p.file1), y2: Y(p.rank1) }));
      g.append(svgEl('line', { x1: X(p.file0), y1: Y(p.rank1), x2: X(p.file1), y2: Y(p.rank0) }));
    }
    svg.append(g);
    if (v.river) {
      const y = (Y(half - 1) + Y(half)) / 2;
      svg.append(svgEl('text', { x: X(0) + cell * 2, y, class: 'river' }, '楚 河'));
      svg.append(svgEl('text', { x: X(0) + cell * (F - 3), y, class: 'river' }, '漢 界'));
    }
    // File numbers: the second player's 1..n on top, the first player's 九..一 below.
    const zh = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二'];
    const redLabel = (f) => zh[F - 1 - f] || String(F - f);
    const blackLabel = (f) => String(f + 1);
    for (let f = 0; f < F; ++f) {
      svg.append(svgEl('text', { x: X(f), y: 16, class: 'coord' }, flipped ? redLabel(f) : blackLabel(f)));
      svg.append(svgEl('text', { x: X(f), y: height - 8, class: 'coord' }, flipped ? blackLabel(f) : redLabel(f)));
    }
  } else {
    for (let r = 0; r < R; ++r)
      for (let f = 0; f < F; ++f)
        svg.append(svgEl('rect', { x: X(f) - cell / 2, y: Y(r) - cell / 2, width: cell, height: cell,
                                   class: (f + r) % 2 ? 'light' : 'dark' }));
    for (let f = 0; f < F; ++f)
      svg.append(svgEl('text', { x: X(f), y: height - 6, class: 'coord' }, String.fromCharCode(97 + f)));
    for (let r = 0; r < R; ++r)
      svg.append(svgEl('text', { x: margin / 2, y: Y(r) + 5, class: 'coord' }, String(r + 1)));
  }

  // The last move: its origin ringed, the piece that moved outlined.
  const fromName = node && node.from, toName = node && node.to;
  const marks = svgEl('g', { class: 'marks' });
  svg.append(marks);
  const pieces = svgEl('g', { class: 'pieces' });
  for (let i = 0; i < board.length; ++i) {
    const f = i % F, r = R - 1 - Math.floor(i / F);
    const sq = squareName(f, r);
    if (sq === fromName)
      marks.append(svgEl(xq ? 'circle' : 'rect', xq ? { cx: X(f), cy: Y(r), r: cell * 0.2, class: 'from' }
                                                  : { x: X(f) - cell / 2, y: Y(r) - cell / 2, width: cell, height: cell, class: 'from' }));
    const ch = board[i];
    if (ch === '.') continue;
    const first = ch === ch.toUpperCase();
    const letter = ch.toUpperCase();
    const kind = v.pieces[letter] || { zh: [letter, letter], symbol: ['', ''], name: letter };
    const color = first ? v.colors[0] : v.colors[1];
    const g = svgEl('g', { class: `piece ${color}` + (sq === toName ? ' last' : ''), 'data-square': sq,
                           'data-piece': ch, 'data-name': kind.name });
    if (!xq && sq === toName)
      marks.append(svgEl('rect', { x: X(f) - cell / 2, y: Y(r) - cell / 2, width: cell, height: cell, class: 'to' }));
    if (xq) {
      g.append(svgEl('circle', { cx: X(f), cy: Y(r), r: cell * 0.45, class: 'disc' }));
      g.append(svgEl('circle', { cx: X(f), cy: Y(r), r: cell * 0.37, class: 'ring' }));
      g.append(svgEl('text', { x: X(f), y: Y(r), class: 'name' }, kind.zh[first ? 0 : 1] || letter));
    } else {
      const sym = kind.symbol[first ? 0 : 1];
      g.append(svgEl('text', { x: X(f), y: Y(r), class: sym ? 'symbol' : 'letter' }, sym || letter));
    }
    pieces.append(g);
  }
  svg.append(pieces);
}

// ---------------------------------------------------------------- start

async function start() {
  // Whatever goes wrong shows, rather than a page that silently stops.
  window.addEventListener('error', (e) => showError('Page error: ' + e.message));
  window.addEventListener('unhandledrejection', (e) => showError('Page error: ' + ((e.reason && e.reason.message) || e.reason)));
  wireFilters();
  wirePuzzleControls();
  window.addEventListener('hashchange', route);
  try {
    state.info = await api('/api/info');
    const s = state.info.store;
    $('store-info').textContent = `${s.puzzles} puzzles in ${s.collections} collections`;
    const tb = Object.entries(state.info.tablebases).map(([v, m]) => `${v}: ${m.length} tables`);
    $('tb-info').textContent = tb.length ? 'Tablebases ' + tb.join(', ') : '';
    await loadCollections();
  } catch (e) {
    showError('Cannot reach the Canju server: ' + e.message);
    return;
  }
  route();
}

document.addEventListener('DOMContentLoaded', start);
