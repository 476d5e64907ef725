/**
 * Keeps the till and the server in step. Down: one pull per collection
 * (`pull.ts`), from its checkpoint, all collections at once, again when the
 * live stream (`sync.changes`) names the collection or reconnects. Up: the command outbox, pushed in
 * creation order in batches, each result written back to its command
 * (`applied`, or `refused` with the reason, which stays). Only the leader tab
 * syncs. A call that gets no answer is tried again with growing backoff.
 *
 * The status is what actually happened: `online` only after a call succeeded,
 * `unreachable` after one failed, `offline` when the browser says so, and the
 * unsynced count straight from the outbox. An idle till learns the server went
 * from its live stream: the server pings it every few seconds, so a stream
 * that errs or falls silent is noticed at once; a cheap call (`sync.report`)
 * then decides, so a slow but live server is no false alarm. While the server
 * does not answer, that call is tried every few seconds, so the till says
 * online again soon after it returns.
 */
import { BehaviorSubject, Subject, combineLatest, filter, fromEvent, map, merge, of, startWith } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { PULL_COLLECTIONS, PULL_PAGE_MAX, PUSH_BATCH_MAX, pushBatch } from '@tz/core';
import type { ChangeHint, Checkpoint, Command, CommandResult, PullCollection, ReportResult } from '@tz/core';
import type { RefusedCommand, SyncStatus } from '../api.ts';
import { device, hasEnded } from '../store/context.ts';
import type { Context, Device } from '../store/context.ts';
import { KV } from '../store/kv.ts';
import { isCatalogue } from '../catalogue/catalogue-pages.ts';
import { CollectionPull } from './pull.ts';
import { tellBacklog } from './till-end.ts';
import { PULL_TARGETS } from '../store/schema.ts';
import type { CommandDoc } from '../store/schema.ts';
import { classifyFailure, failureMessage } from './transport.ts';
import { commandRefusal } from '../sale/refusals.ts';

export interface SyncTiming {
  /** First retry after a failure; doubles up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** How often the leader looks for unsent commands and re-pulls without a hint. */
  intervalMs: number;
  /** A failed pull is tried again after this; a reconnect re-pulls sooner. */
  pullRetryMs: number;
  /** While the server does not answer, it is asked again after this; doubling up to `maxHeartbeatMs`. */
  heartbeatMs: number;
  maxHeartbeatMs: number;
  /** How long that call may take before the server counts as not answering. */
  heartbeatTimeoutMs: number;
}

export const DEFAULT_TIMING: SyncTiming = {
  backoffMs: 1000,
  maxBackoffMs: 60_000,
  intervalMs: 30_000,
  pullRetryMs: 15_000,
  heartbeatMs: 2000,
  maxHeartbeatMs: 10_000,
  heartbeatTimeoutMs: 4000,
};

interface EngineState {
  connection: 'online' | 'unreachable';
  lastSyncAt: number | null;
  leader: boolean;
  lastError: string | null;
}

/** What the leader tab shares through `kv`, so every tab of the till shows the same truth. */
type SharedState = Pick<EngineState, 'connection' | 'lastSyncAt' | 'lastError'>;

export class SyncEngine {
  private readonly state$ = new BehaviorSubject<EngineState>({
    connection: 'unreachable',
    lastSyncAt: null,
    leader: false,
    lastError: null,
  });
  private readonly hints$ = new Subject<ChangeHint>();
  /** Payments named by the live stream, for the mobile money tender. */
  readonly paymentHints$: Observable<string[]> = this.hints$.pipe(
    map((hint) => hint.payments ?? []),
    filter((ids) => ids.length > 0),
  );
  private pulls = new Map<PullCollection, CollectionPull>();
  private pullRetries = new Map<PullCollection, ReturnType<typeof setTimeout>>();
  private subscriptions: Subscription[] = [];
  private stopChanges: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private heartbeatTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeatDelay = 0;
  private checking: Promise<boolean> | null = null;
  private listenTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly timing: SyncTiming;
  private pushing: Promise<void> | null = null;
  private pushAgain = false;
  private running = false;
  private readonly onOnline = () => {
    this.failures = 0;
    this.state$.next({ ...this.state$.value });
    this.schedule(0);
    this.pullAll();
  };

  constructor(
    private readonly ctx: Context,
    timing: Partial<SyncTiming> = {},
  ) {
    this.timing = { ...DEFAULT_TIMING, ...timing };
    this.heartbeatDelay = this.timing.heartbeatMs;
  }

  /** Starts syncing once this tab leads and the till is paired and not revoked. */
  async start(): Promise<void> {
    const current = await device(this.ctx);
    if (!current || hasEnded(current) || this.running) return;
    this.running = true;
    await this.ctx.db.waitForLeadership();
    if (!this.running) return;
    const shared = await this.ctx.kv.get<SharedState>(KV.syncState);
    // Stopped while that was read (the till closed): its collections are gone, nothing to start.
    if (!this.running) return;
    this.state$.next({ ...this.state$.value, leader: true, lastSyncAt: shared?.lastSyncAt ?? null });
    this.subscriptions.push(
      this.state$.subscribe(
        (state) =>
          void this.share(state).catch((error: unknown) => {
            // A state shared as the till closes has nowhere to go; any other failure is real.
            if (this.running) throw error;
          }),
      ),
    );
    this.startPulls(current);
    this.listen();
    this.subscriptions.push(this.ctx.db.commands.insert$.subscribe(() => this.schedule(0)));
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
    if (this.listenTimer) clearTimeout(this.listenTimer);
    this.listenTimer = null;
    this.stopChanges?.();
    this.stopChanges = null;
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
    for (const retry of this.pullRetries.values()) clearTimeout(retry);
    this.pullRetries.clear();
    const pulls = [...this.pulls.values()];
    this.pulls.clear();
    await Promise.all(pulls.map((pull) => pull.stop()));
    await this.pushing;
  }

  /** Follows the live stream; one that ended for good is opened again after a heartbeat's wait. */
  private listen(): void {
    if (!this.running) return;
    this.stopChanges = this.ctx.transport.changes({
      onHint: (hint) => {
        this.succeeded();
        for (const collection of hint.collections) this.pullOne(collection);
        this.hints$.next(hint);
      },
      onStarted: () => {
        this.succeeded();
        this.pullAll();
        this.schedule(0);
      },
      onError: (error) => this.streamTrouble(error),
      onEnded: (error) => {
        this.streamTrouble(error);
        this.stopChanges = null;
        if (!this.running || this.listenTimer) return;
        this.listenTimer = setTimeout(() => {
          this.listenTimer = null;
          this.listen();
        }, this.timing.heartbeatMs);
      },
    });
  }

  /**
   * The stream erred or fell silent: that alone may be the stream, not the
   * server. A revocation is final; otherwise a cheap call decides.
   */
  private streamTrouble(error: unknown): void {
    const kind = classifyFailure(error);
    if (kind === 'revoked' || kind === 'retired') {
      void this.failed(error);
      return;
    }
    if (this.state$.value.connection === 'online') void this.check(error);
  }

  /**
   * Asks the server a cheap call (the till's report, which also keeps its
   * `last_seen`): true when it answered in time. Failing, the status says
   * unreachable and the call is tried again every few seconds.
   */
  private check(cause?: unknown): Promise<boolean> {
    this.checking ??= this.heartbeat(cause).finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async heartbeat(cause: unknown): Promise<boolean> {
    if (!this.running || !this.ctx.online()) return false;
    const wasOnline = this.state$.value.connection === 'online';
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const backlog = await this.ctx.db.commands.count({ selector: { status: 'pending' } }).exec();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(cause instanceof Error ? cause : new Error('The server did not answer in time')),
          this.timing.heartbeatTimeoutMs,
        );
      });
      const told = await Promise.race([
        this.ctx.transport.report({ app_version: this.ctx.appVersion, backlog }),
        timeout,
      ]);
      await this.heard(told);
    } catch (error) {
      await this.failed(error);
      return false;
    } finally {
      clearTimeout(timer);
    }
    // A push that failed says so until a push goes through: the server answering is not enough.
    if (wasOnline || this.failures === 0) this.succeeded();
    if (!wasOnline) {
      // Back: what waited goes up now, and what changed meanwhile comes down.
      this.pullAll();
      this.schedule(0);
    }
    return true;
  }

  /** While the server does not answer, asks it again with growing gaps (a few seconds at most). */
  private watchServer(): void {
    if (!this.running || this.heartbeatTimer) return;
    const delay = this.heartbeatDelay;
    this.heartbeatDelay = Math.min(this.timing.maxHeartbeatMs, delay * 2);
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeatTimer = null;
      if (this.state$.value.connection === 'online') return;
      void this.check().then((answered) => {
        if (!answered) this.watchServer();
      });
    }, delay);
  }

  private startPulls(current: Device): void {
    for (const collection of PULL_COLLECTIONS) {
      this.pulls.set(
        collection,
        new CollectionPull({
          collection,
          target: this.ctx.db[PULL_TARGETS[collection]],
          kv: this.ctx.kv,
          pairing: current.pairing,
          pageSize: PULL_PAGE_MAX,
          fetch: (checkpoint, limit) => this.pull(collection, checkpoint, limit),
          ...(this.ctx.catalogue.snapshot && isCatalogue(collection)
            ? { writes: this.ctx.catalogue.snapshot }
            : {}),
        }),
      );
    }
    this.pullAll();
  }

  private pullAll(): void {
    for (const collection of PULL_COLLECTIONS) this.pullOne(collection);
  }

  /** Pulls a collection now; after a failure, again in `pullRetryMs` (or sooner, on a hint or reconnect). */
  private pullOne(collection: PullCollection): void {
    const pull = this.pulls.get(collection);
    if (!pull || !this.running) return;
    clearTimeout(this.pullRetries.get(collection));
    this.pullRetries.delete(collection);
    pull.run().catch(() => {
      if (!this.running || this.pullRetries.has(collection)) return;
      this.pullRetries.set(
        collection,
        setTimeout(() => this.pullOne(collection), this.timing.pullRetryMs),
      );
    });
  }

  private shared: SharedState | null = null;

  /** Writes the leader's view to `kv` when it changed. */
  private async share(state: EngineState): Promise<void> {
    if (!state.leader) return;
    const next: SharedState = {
      connection: state.connection,
      lastSyncAt: state.lastSyncAt,
      lastError: state.lastError,
    };
    const before = this.shared;
    if (
      before &&
      before.connection === next.connection &&
      before.lastSyncAt === next.lastSyncAt &&
      before.lastError === next.lastError
    )
      return;
    this.shared = next;
    await this.ctx.kv.set(KV.syncState, next);
  }

  private async pull(collection: PullCollection, checkpoint: Checkpoint | null, limit: number) {
    try {
      const result = await this.ctx.transport.pull({ collection, checkpoint, limit });
      this.succeeded();
      return result;
    } catch (error) {
      await this.failed(error);
      throw error;
    }
  }

  private succeeded(): void {
    this.heartbeatDelay = this.timing.heartbeatMs;
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    this.heartbeatTimer = null;
    if (this.state$.value.connection !== 'online' || this.state$.value.lastError !== null) {
      this.state$.next({ ...this.state$.value, connection: 'online', lastError: null });
    }
  }

  private async failed(error: unknown): Promise<void> {
    const kind = classifyFailure(error);
    this.state$.next({ ...this.state$.value, connection: 'unreachable', lastError: failureMessage(error) });
    if (kind === 'revoked') await this.revoke();
    else if (kind === 'retired') await this.retire('done');
    else this.watchServer();
  }

  /** The server revoked this till: stop for good, keep every command, and say how many it holds. */
  private async revoke(): Promise<void> {
    const current = await device(this.ctx);
    if (current && !current.revoked) await this.ctx.kv.set(KV.device, { ...current, revoked: true });
    void this.stop();
    void tellBacklog(this.ctx);
  }

  /** What the server said of this till when it reported: a retired till sells nothing new. */
  private async heard(told: ReportResult): Promise<void> {
    if (told.status !== 'paired') await this.retire(told.status === 'retired' ? 'done' : 'retiring');
  }

  /** Retiring: keep sending the backlog. Done: it arrived (or the server stopped the till); stop. */
  private async retire(stage: 'retiring' | 'done'): Promise<void> {
    const current = await device(this.ctx);
    if (current && current.retired !== stage && current.retired !== 'done') {
      await this.ctx.kv.set(KV.device, { ...current, retired: stage });
    }
    if (stage === 'done') void this.stop();
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.pushRound().finally(() => {
        const backoff = Math.min(this.timing.maxBackoffMs, this.timing.backoffMs * 2 ** (this.failures - 1));
        if (this.running && !this.timer) this.schedule(this.failures > 0 ? backoff : this.timing.intervalMs);
      });
    }, delayMs);
  }

  /**
   * Pushes every pending command (one round at a time), then reports the backlog. Asked
   * while a round runs (a sale written meanwhile), another round follows as soon as it ends.
   */
  pushRound(): Promise<void> {
    if (this.pushing) {
      this.pushAgain = true;
      return this.pushing;
    }
    this.pushing = (async () => {
      do {
        this.pushAgain = false;
        await this.pushAll();
      } while (this.pushAgain && this.running && this.failures === 0);
    })().finally(() => {
      this.pushing = null;
    });
    return this.pushing;
  }

  private async pushAll(): Promise<void> {
    if (!this.ctx.online()) return;
    try {
      for (;;) {
        const pending = await this.ctx.db.commands
          .find({
            selector: { status: 'pending' },
            sort: [{ status: 'asc' }, { id: 'asc' }],
            limit: PUSH_BATCH_MAX,
          })
          .exec();
        if (pending.length === 0) break;
        // As many as fit the server's limit on a push's size; the rest go next.
        const commands: Command[] = pushBatch(
          pending.map((doc) => ({
            id: doc.id,
            type: doc.type,
            created_at: doc.created_at,
            payload: doc.toJSON().payload,
          })),
        );
        const { results } = await this.ctx.transport.push({ commands });
        this.succeeded();
        const answered = await this.record(pending, results);
        // A command the server could not try stops the round: the ones after it may depend on it.
        if (answered < commands.length) throw new Error('The server could not apply every command yet');
        if (commands.length === pending.length && pending.length < PUSH_BATCH_MAX) break;
      }
      const backlog = await this.ctx.db.commands.count({ selector: { status: 'pending' } }).exec();
      await this.heard(await this.ctx.transport.report({ app_version: this.ctx.appVersion, backlog }));
      this.failures = 0;
      const at = this.ctx.now();
      this.state$.next({ ...this.state$.value, connection: 'online', lastSyncAt: at, lastError: null });
    } catch (error) {
      this.failures += 1;
      await this.failed(error);
    }
  }

  /**
   * Writes each result onto its command; returns how many were answered. The writes are made
   * together, so RxDB's write queue puts a batch's results into one or two storage writes, not
   * one each.
   */
  private async record(
    pending: ReadonlyArray<{ id: string; incrementalPatch(patch: Partial<CommandDoc>): Promise<unknown> }>,
    results: readonly CommandResult[],
  ): Promise<number> {
    const byId = new Map(results.map((result) => [result.id, result]));
    const writes: Array<Promise<unknown>> = [];
    let answered = 0;
    for (const doc of pending) {
      const result = byId.get(doc.id);
      if (!result) continue;
      // Refused only because this till was revoked: the sale stays unsynced on the till, not refused.
      if (result.status === 'refused' && result.error.code === 'till_revoked') {
        await Promise.all(writes);
        await this.revoke();
        return answered;
      }
      answered += 1;
      writes.push(
        doc.incrementalPatch(
          result.status === 'applied'
            ? { status: 'applied', result: result.result, error: null, synced_at: this.ctx.now() }
            : { status: 'refused', error: result.error, synced_at: this.ctx.now() },
        ),
      );
    }
    await Promise.all(writes);
    return answered;
  }

  async syncNow(): Promise<void> {
    this.failures = 0;
    this.pullAll();
    await this.pushRound();
  }

  status$(): Observable<SyncStatus> {
    const unsynced$ = this.ctx.db.commands.count({ selector: { status: 'pending' } }).$;
    const refused$ = this.ctx.db.commands
      .find({ selector: { status: 'refused' }, sort: [{ status: 'asc' }, { id: 'asc' }] })
      .$.pipe(map((docs) => docs.map((doc) => refusedView(doc.toJSON() as CommandDoc))));
    const device$ = this.ctx.kv.watch<Device>(KV.device);
    const shared$ = this.ctx.kv.watch<SharedState>(KV.syncState);
    // The browser's online/offline events re-emit, so `offline` shows the moment the network goes.
    const network$ =
      typeof window === 'undefined'
        ? of(null)
        : merge(fromEvent(window, 'online'), fromEvent(window, 'offline')).pipe(startWith(null));
    return combineLatest([this.state$, unsynced$, refused$, device$, shared$, network$]).pipe(
      map(([own, unsynced, refused, current, shared]) => {
        // Other tabs show what the leader saw.
        const state = own.leader || !shared ? own : { ...own, ...shared };
        return {
          connection: !this.ctx.online() ? 'offline' : state.connection,
          unsynced,
          lastSyncAt: state.lastSyncAt,
          refused,
          revoked: current?.revoked ?? false,
          leader: own.leader,
          lastError: state.lastError,
        };
      }),
    );
  }
}

function refusedView(command: CommandDoc): RefusedCommand {
  return {
    id: command.id,
    type: command.type,
    createdAt: command.created_at,
    label: command.receipt_number,
    refusal: commandRefusal(command) ?? { code: 'unknown', message: 'Refused' },
  };
}
