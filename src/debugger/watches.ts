// The Watches scope of a run that records its watches: each program, its informers (by resource), and for each the
// open watch request, what it has been told and what its handlers have yet to get, as the engine's view words them.
import type { InformerView, ToldEvent, WatchesView } from '../engine/report/watches';
import { countsText } from '../engine/report/watches';
import { Described } from './variables';

/** watchesScope is the scope's children: one entry per program, each described by its line and holding its informers. */
export function watchesScope(view: WatchesView): Record<string, unknown> {
  return Object.fromEntries(view.programs.map((p) => [p.watcher, new Described(p.text, Object.fromEntries(p.informers.map((i) => [i.resource, informerNode(i)])))]));
}

function informerNode(i: InformerView): Described {
  return new Described(i.text, {
    request: i.request,
    resourceVersion: i.resourceVersion,
    timeoutSeconds: i.timeoutSeconds,
    openedAt: `${i.openedAt}s`,
    watches: i.watches,
    initialEvents: i.initialEvents,
    bookmarks: i.bookmarks,
    told: new Described(countsText(i.told), { ...i.told }),
    ...(i.last ? { last: toldNode(i.last) } : {}),
    pending: new Described(i.pending.length ? `${i.pending.length} to hand to the handlers` : 'none', i.pending.map(toldNode)),
  });
}

function toldNode(t: ToldEvent): Described {
  return new Described(t.text, { type: t.type, object: t.object, resourceVersion: t.resourceVersion, at: `${t.at}s`, deliveredAt: `${t.deliveredAt}s` });
}
