// The CronJob controller's informer handlers and work queue: a CronJob added or deleted is synced now; an update
// that changes the schedule or time zone waits for the next schedule time, any other update (its own status ones
// too) syncs now; a Job's add, update or delete wakes the CronJob its controller reference names (same uid). A sync's
// requeue is AddAfter (Forget first); an error is AddRateLimited. See pkg/controller/cronjob/cronjob_controllerv2.go
// (NewControllerV2's handlers, updateCronJob, addJob, updateJob, deleteJob, processNextWorkItem) at v1.36.3.
import type { KubeObject } from '../api/types';
import type { ApiServer } from '../apiserver/server';
import type { WatchEventType } from '../cluster/store';
import type { EngineContext } from '../context';
import type { WorkQueue } from './manager';
import { CronError } from './cron-schedule';
import { CRONJOB_CONTROLLER, syncCronJob } from './cronjob';
import { type CronJob, nextScheduleTimeDuration, scheduleOf } from './cronjob-utils';
import { controllerOf } from './owner';
import { ControllerRateLimiter, requeuedEntry } from './rate-limiter';

export class CronJobQueue {
  private readonly limiter = new ControllerRateLimiter();

  constructor(private readonly ctx: EngineContext, private readonly api: ApiServer, private readonly queue: WorkQueue) {}

  /** enqueue queues a sync of the CronJob, now or `after` milliseconds from now. */
  enqueue(ns: string | undefined, name: string | undefined, after = 0): void {
    if (!name) return;
    const { ctx, api, limiter } = this;
    const key = `${ns}/${name}`;
    this.queue.add(key, function* () {
      const r = yield* syncCronJob(ctx, api, ns ?? 'default', name);
      if (r.error === undefined) {
        if (r.requeueAfter !== undefined) limiter.forget(key);
        return r.requeueAfter;
      }
      const delay = limiter.when(key, ctx.clock.now);
      yield requeuedEntry('controllers.cronjob', `CronJob/${key}`, r.error, delay);
      return delay;
    }, after);
  }

  /** onCronJob is the CronJob informer's handlers. */
  onCronJob(type: WatchEventType, cj: CronJob, old: CronJob | undefined): void {
    const ns = cj.metadata?.namespace;
    const name = cj.metadata?.name;
    if (type !== 'MODIFIED' || !old) return this.enqueue(ns, name);
    if (old.spec?.schedule === cj.spec?.schedule && (old.spec?.timeZone ?? null) === (cj.spec?.timeZone ?? null)) return this.enqueue(ns, name);
    // updateCronJob: a new schedule is synced at its next time (an earlier wait stays, the queue keeps the sooner).
    try {
      const delay = nextScheduleTimeDuration(cj, this.ctx.clock.epoch.getTime() + this.ctx.clock.now, scheduleOf(cj));
      if (delay !== undefined) this.enqueue(ns, name, Math.max(0, delay));
    } catch (err) {
      if (!(err instanceof CronError)) throw err;
      this.ctx.recorder.event({ type: 'Warning', reason: 'UnParseableCronJobSchedule', object: `CronJob/${ns}/${name}`, source: CRONJOB_CONTROLLER, message: `unparseable schedule for cronjob: ${cj.spec?.schedule ?? ''}` });
    }
  }

  /** onJob is addJob / updateJob / deleteJob: the CronJob of the Job's controller reference, and a former one. */
  onJob(type: WatchEventType, job: KubeObject, old: KubeObject | undefined): void {
    if (type === 'MODIFIED' && old?.metadata?.resourceVersion === job.metadata?.resourceVersion) return;
    const ref = controllerOf(job);
    const was = type === 'MODIFIED' && old ? controllerOf(old) : undefined;
    if (was && JSON.stringify(was) !== JSON.stringify(ref)) this.wake(job.metadata?.namespace, was);
    if (ref) this.wake(job.metadata?.namespace, ref);
  }

  /** wake is resolveControllerRef (kind CronJob, same name and uid) then enqueueController. */
  private wake(ns: string | undefined, ref: { kind: string; name: string; uid: string }): void {
    if (ref.kind !== 'CronJob') return;
    const cj = this.ctx.store.get<CronJob>('CronJob', ns, ref.name);
    if (cj && cj.metadata?.uid === ref.uid) this.enqueue(ns, ref.name);
  }
}
