// The state tree page, run inside the webview. It renders the StateView the extension posts, as text only
// (never as HTML), keeps its state when hidden, and posts back what the user picks. Every message it
// receives is checked before use; anything else is ignored.
import { type Decision, isStateView, type NodeView, STATE_VIEW_VERSION, type StateView, type TimelineItem, type TreeItem, type WatchesView } from '../view';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** Strings are the page's own words, localized by the extension and handed over in the HTML. */
type Strings = Record<string, string>;

interface Saved {
  view?: StateView;
  collapsed: string[];
  selected?: string;
}

const vscode = acquireVsCodeApi();
const strings: Strings = readStrings();
const saved = readSaved();
const collapsed = new Set<string>(saved.collapsed);
let selected: string | undefined = saved.selected;
let view: StateView | undefined = saved.view;

function t(key: string, ...args: (string | number)[]): string {
  const template = strings[key] ?? key;
  return template.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}

function readStrings(): Strings {
  const el = document.getElementById('strings');
  try {
    const parsed: unknown = JSON.parse(el?.textContent ?? '{}');
    if (parsed && typeof parsed === 'object') {
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
    }
  } catch {
    // A page without its strings still works in English keys.
  }
  return {};
}

function readSaved(): Saved {
  const state = vscode.getState() as Partial<Saved> | undefined;
  return {
    ...(state && isStateView(state.view) ? { view: state.view } : {}),
    collapsed: Array.isArray(state?.collapsed) ? state.collapsed.filter((x): x is string => typeof x === 'string') : [],
    ...(typeof state?.selected === 'string' ? { selected: state.selected } : {}),
  };
}

function save(): void {
  vscode.setState({ view, collapsed: [...collapsed], selected } satisfies Saved);
}

/** el makes an element with text content only; no string ever becomes markup. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return node;
}

function render(): void {
  const root = document.getElementById('root');
  if (!root) return;
  root.replaceChildren();
  if (!view) {
    root.append(el('p', { class: 'empty', role: 'status' }, t('empty')));
    return;
  }
  root.append(
    el('header', { class: 'summary', role: 'status', 'aria-live': 'polite' },
      el('span', { class: 'clock' }, t('at', view.at.toFixed(1))),
      view.phase ? el('span', { class: 'phase' }, view.phase) : '',
      view.current ? el('span', { class: 'current' }, view.current) : ''),
    section('workloads', t('workloads'), renderTree(view.workloads)),
    section('nodes', t('nodes'), renderNodes(view.nodes)),
    ...(view.decision ? [section('decision', t('decision', view.decision.stage, view.decision.pod), renderDecision(view.decision))] : []),
    ...(view.watches ? [section('watches', t('watches'), renderWatches(view.watches))] : []),
    section('timeline', t('timeline'), renderTimeline(view.timeline)),
  );
  const focus = selected ? root.querySelector<HTMLElement>(`[data-id="${CSS.escape(selected)}"]`) : null;
  const first = focus ?? root.querySelector<HTMLElement>('[role="treeitem"]');
  if (first) first.tabIndex = 0;
}

function section(id: string, title: string, body: Node): HTMLElement {
  const heading = el('h2', { id: `${id}-title` }, title);
  return el('section', { class: id, 'aria-labelledby': `${id}-title` }, heading, body);
}

function renderTree(items: TreeItem[]): Node {
  if (items.length === 0) return el('p', { class: 'empty' }, t('noWorkloads'));
  const tree = el('ul', { role: 'tree', 'aria-label': t('workloads') });
  const add = (parent: HTMLElement, item: TreeItem, level: number): void => {
    const open = !collapsed.has(item.id);
    const label = el('span', { class: 'label' },
      el('span', { class: 'kind' }, item.kind), ' ', el('span', { class: 'name' }, item.name), ' ',
      el('span', { class: `status tone-${item.tone}` }, item.status),
      item.phase ? el('span', { class: 'in-phase' }, item.phase) : '');
    const li = el('li', {
      role: 'treeitem', 'aria-level': String(level), 'data-id': item.id, 'data-ref': item.ref, 'data-field': item.field ?? '',
      'aria-label': t('treeItem', item.kind, item.name, item.status), tabindex: '-1',
      ...(item.children.length ? { 'aria-expanded': String(open) } : {}),
      ...(item.id === selected ? { 'aria-selected': 'true' } : {}),
      ...(view?.current === item.ref && !item.id.includes('#') ? { class: 'is-current' } : {}),
    }, label);
    if (item.children.length && open) {
      const group = el('ul', { role: 'group' });
      for (const child of item.children) add(group, child, level + 1);
      li.append(group);
    }
    parent.append(li);
  };
  for (const item of items) add(tree, item, 1);
  tree.addEventListener('keydown', onTreeKey);
  tree.addEventListener('click', (e) => {
    const li = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
    if (!li) return;
    if (li.hasAttribute('aria-expanded') && (e.target as HTMLElement).closest('.label') && e.detail === 2) toggle(li);
    else activate(li);
  });
  return tree;
}

function visibleItems(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[role="treeitem"]')];
}

function focusItem(li: HTMLElement | undefined): void {
  if (!li) return;
  for (const other of visibleItems()) other.tabIndex = -1;
  li.tabIndex = 0;
  li.focus();
}

function toggle(li: HTMLElement): void {
  const id = li.dataset['id'] ?? '';
  if (collapsed.has(id)) collapsed.delete(id);
  else collapsed.add(id);
  selected = id;
  save();
  render();
  focusItem(document.querySelector<HTMLElement>(`[data-id="${CSS.escape(id)}"]`) ?? undefined);
}

function activate(li: HTMLElement): void {
  selected = li.dataset['id'];
  for (const other of visibleItems()) other.removeAttribute('aria-selected');
  li.setAttribute('aria-selected', 'true');
  focusItem(li);
  save();
  vscode.postMessage({ type: 'reveal', ref: li.dataset['ref'] ?? '', field: li.dataset['field'] ?? '' });
}

/** onTreeKey gives the tree the keys of the WAI-ARIA tree pattern. */
function onTreeKey(e: KeyboardEvent): void {
  const li = (e.target as HTMLElement).closest<HTMLElement>('[role="treeitem"]');
  if (!li) return;
  const items = visibleItems();
  const i = items.indexOf(li);
  const expanded = li.getAttribute('aria-expanded');
  switch (e.key) {
    case 'ArrowDown': focusItem(items[i + 1]); break;
    case 'ArrowUp': focusItem(items[i - 1]); break;
    case 'Home': focusItem(items[0]); break;
    case 'End': focusItem(items.at(-1)); break;
    case 'ArrowRight':
      if (expanded === 'false') toggle(li);
      else if (expanded === 'true') focusItem(li.querySelector<HTMLElement>('[role="treeitem"]') ?? undefined);
      break;
    case 'ArrowLeft':
      if (expanded === 'true') toggle(li);
      else focusItem(li.parentElement?.closest<HTMLElement>('[role="treeitem"]') ?? undefined);
      break;
    case 'Enter':
    case ' ':
      activate(li);
      break;
    default:
      return;
  }
  e.preventDefault();
}

function renderNodes(nodes: NodeView[]): Node {
  const list = el('ul', { class: 'node-list' });
  for (const n of nodes) {
    const bars = el('dl', { class: 'resources' });
    for (const r of n.resources) {
      // A bar drawn with the theme's colors (a native <meter> draws a full white bar for 0% in dark themes). The fill's
      // width is set through the CSSOM, which the page's style-src policy allows, where a style attribute is not.
      const percent = Math.max(0, Math.min(r.percent, 100));
      const fill = el('span', { class: 'fill' });
      fill.style.width = `${percent}%`;
      const meter = el('span', { class: 'bar', role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(percent), 'aria-label': t('resource', r.name, r.requested, r.allocatable) }, fill);
      bars.append(el('dt', {}, r.name), el('dd', {}, meter, ` ${r.requested} / ${r.allocatable} (${r.percent}%)`));
    }
    list.append(el('li', { class: 'node', 'data-ref': n.ref },
      el('h3', {}, n.name, ' ', el('span', { class: `status tone-${n.ready ? 'ok' : 'error'}` }, n.ready ? t('ready') : t('notReady'))),
      bars,
      el('p', { class: 'taints' }, t('taints'), ' ', n.taints.length ? n.taints.join(', ') : t('none')),
      el('p', { class: 'pods' }, t('pods'), ' ', n.pods.length ? n.pods.join(', ') : t('none'))));
  }
  return list;
}

function renderDecision(d: Decision): Node {
  const table = el('table', { class: 'decision-table' });
  table.append(el('caption', {}, t('decisionCaption', d.stage, d.pod)));
  const head = el('tr', {}, el('th', { scope: 'col' }, t('plugin')));
  for (const n of d.nodes) head.append(el('th', { scope: 'col', ...(n === d.chosen ? { class: 'chosen' } : {}) }, n));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  for (const p of d.plugins) {
    const row = el('tr', {}, el('th', { scope: 'row' }, p));
    for (const n of d.nodes) {
      const cell = d.cells[p]?.[n];
      row.append(el('td', { class: `tone-${cell?.tone ?? 'idle'}` }, cell?.text ?? ''));
    }
    body.append(row);
  }
  if (d.totals) {
    const row = el('tr', { class: 'totals' }, el('th', { scope: 'row' }, t('total')));
    for (const n of d.nodes) row.append(el('td', n === d.chosen ? { class: 'chosen' } : {}, d.totals[n] === undefined ? '' : String(d.totals[n])));
    body.append(row);
  }
  table.append(body);
  return table;
}

/**
 * renderWatches lists each program the view lists with its line, and under it its informers (those told something
 * since they opened): their line, the open request and its resourceVersion. The quiet informers and programs are
 * counted, not listed (kube-controller-manager alone watches some forty resources, a big cluster has a kubelet a node).
 */
function renderWatches(w: WatchesView): Node {
  const list = el('ul', { class: 'watch-list' });
  for (const p of w.programs) {
    const informers = el('ul', { class: 'informers' });
    for (const i of p.informers) {
      informers.append(el('li', { class: `informer${i.pending.length ? ' tone-warn' : ''}`, 'data-watcher': p.watcher, 'data-resource': i.resource },
        el('span', { class: 'text' }, i.text),
        el('code', { class: 'request' }, i.request),
        el('span', { class: 'rv' }, t('watchResourceVersion', i.resourceVersion, i.timeoutSeconds))));
    }
    if (p.quiet > 0) informers.append(el('li', { class: 'quiet' }, t('quietWatches', p.quiet)));
    list.append(el('li', { class: 'program', 'data-watcher': p.watcher }, el('h3', {}, p.watcher, ' ', el('span', { class: 'status' }, p.text)), informers));
  }
  if (w.quietPrograms > 0) list.append(el('li', { class: 'quiet' }, t('quietPrograms', w.quietPrograms)));
  return el('div', {}, el('p', { class: 'watches-summary' }, w.text), list);
}

function renderTimeline(items: TimelineItem[]): Node {
  const list = el('ol', { class: 'timeline' });
  for (const item of items) {
    const attrs: Record<string, string> = { class: `${item.kind} tone-${item.tone}` };
    if (item.seq !== undefined) Object.assign(attrs, { 'data-seq': String(item.seq), tabindex: '0', role: 'button', 'aria-label': t('goto', item.label, item.at.toFixed(1)) });
    list.append(el('li', attrs,
      el('span', { class: 'at' }, `${item.at.toFixed(1)}s`), ' ',
      el('span', { class: 'what' }, item.label), ' ',
      el('span', { class: 'object' }, item.object), ' ',
      el('span', { class: 'text' }, item.text)));
  }
  const go = (target: EventTarget | null) => {
    const li = (target as HTMLElement | null)?.closest<HTMLElement>('[data-seq]');
    if (li) vscode.postMessage({ type: 'goto', seq: Number(li.dataset['seq']) });
  };
  list.addEventListener('click', (e) => go(e.target));
  list.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') { go(e.target); e.preventDefault(); }
  });
  return list;
}

window.addEventListener('message', (e: MessageEvent) => {
  const data: unknown = e.data;
  if (!data || typeof data !== 'object') return;
  const message = data as { type?: unknown; view?: unknown };
  if (message.type === 'state' && isStateView(message.view)) {
    view = message.view;
    save();
    render();
  } else if (message.type === 'clear') {
    view = undefined;
    save();
    render();
  }
});

render();
vscode.postMessage({ type: 'ready', version: STATE_VIEW_VERSION });
