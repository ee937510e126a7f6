/**
 * Writes to recurring events (README "Recurring events"): a series edited as a whole keeps
 * its occurrences' ids and, unless reset, their edits; one occurrence is edited through an
 * event that overrides it (`this`), or the series is split there (`following`: the part from
 * it on becomes a series of its own, taking its occurrences, ids and edits along), or it is
 * moved with the whole series (`all`). Deleting one cancels it; `following` ends the series
 * before it. Every write runs in one transaction and re-reads what it changes.
 */
import { forbidden } from '../../http/errors.js';
import { preconditionFailed } from '../../http/conditional.js';
import type { Principal } from '../../auth/capabilities.js';
import type { ChangeScope } from '../../changes/log.js';
import { fieldsToNaiveMs, formatFields, naiveMsToFields, parseWallClock } from '../../dates/wall-clock.js';
import { nowDates } from '../../posts/dates.js';
import { uniquePostSlug } from '../../posts/slug.js';
import { present, type WriteTarget } from '../../posts/write-target.js';
import { occurrenceTimes, type SeriesTimes } from '../../recurrence/expand.js';
import type { OccurrenceRow } from '../../recurrence/queries.js';
import type { Recurrence } from '../../recurrence/rules.js';
import { withUntil } from '../../recurrence/rules.js';
import type { SeriesService } from '../../recurrence/series.js';
import type { Store } from '../store.js';
import { withRetry } from '../../store/retry.js';
import { copyEvent, createOverride, followSeries, overridesOf, removeOverrides } from './overrides.js';
import { moveToTrash } from '../../posts/trash.js';
import { EVENT } from '../../posts/kinds.js';
import type { EventRow } from './store.js';
import type { EventInput } from './args.js';

/** The update of one event inside a transaction, as `EventService` writes it; the change log names `change.id`. */
export type ApplyUpdate = (
  tx: Store,
  target: WriteTarget<EventRow>,
  input: EventInput,
  sent: (name: string) => boolean,
  change: { id: number; scope: ChangeScope | null },
) => Promise<EventRow>;

/** What the writes of recurring events need of the event rules, for one caller at one time. */
export interface RecurringContext {
  p: Principal | null;
  now: Date;
  siteZone: string;
  apply: ApplyUpdate;
  can(action: 'edit' | 'delete', row: EventRow): boolean;
  seriesTimesOf(times: Pick<EventRow, 'start_local' | 'end_local' | 'timezone'>): Omit<SeriesTimes, 'recurrence'>;
  /** A date parameter read in `zone` (a 400 when it is no date). */
  wallClock(name: string, value: unknown, zone: string): string;
  /** Told of an occurrence's cancellation inside its transaction, before anything changes (the host's `beforeChange`). */
  beforeCancel?(occurrence: EventRow, scope: 'this' | 'following'): Promise<unknown>;
}

/** Fields of an update that belong to the series, never to one occurrence. */
const SERIES_ONLY = new Set(['slug', 'recurrence', 'scope', 'reset_overrides']);

/** The fields of a series its overrides follow: who sees them, and how. */
const VISIBILITY = ['status', 'status_before_trash', 'password', 'author', 'hidden'] as const;

/** The dates of a recurrence moved as its start moves (`from` → `to`): extra and excluded dates go along. */
function movedDates(r: Recurrence, from: string, to: string, zone: string): Recurrence {
  if (from === to) return r;
  const days = Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
  const move = (d: string) => (d.length === 10 ? new Date(Date.parse(`${d}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10) : shifted(d, from, to));
  const [rdates, exdates] = [r.rdates.map(move), r.exdates.map(move)];
  return { rrule: r.rrule, rdates, exdates, lines: linesOf(r.rrule, rdates, exdates, zone) };
}

/** `YYYYMMDDTHHMMSS` of a wall clock, or `YYYYMMDD` of a date. */
const icalValue = (v: string) => v.replace(/[-:]/g, '').replace(' ', 'T');

/** Lines of a recurrence: its rule, and its extra and excluded dates as wall clocks of `zone`. */
function linesOf(rrule: string | undefined, rdates: readonly string[], exdates: readonly string[], zone: string): string[] {
  const lines = rrule ? [`RRULE:${rrule}`] : [];
  for (const [name, values] of [
    ['RDATE', rdates],
    ['EXDATE', exdates],
  ] as const) {
    const dates = values.filter((v) => v.length === 10);
    const times = values.filter((v) => v.length !== 10);
    if (times.length) lines.push(`${name};TZID=${zone}:${times.map(icalValue).join(',')}`);
    if (dates.length) lines.push(`${name};VALUE=DATE:${dates.map(icalValue).join(',')}`);
  }
  return lines;
}

/** `wallClock` moved by the wall-clock difference `to - from`. */
function shifted(wallClock: string, from: string, to: string): string {
  const [w, f, t] = [parseWallClock(wallClock), parseWallClock(from), parseWallClock(to)];
  if (!w || !f || !t) return wallClock;
  return formatFields(naiveMsToFields(fieldsToNaiveMs(w) + fieldsToNaiveMs(t) - fieldsToNaiveMs(f)));
}

/** Writes to series and their occurrences, for one caller at one time. */
export class RecurringWrites {
  constructor(
    private readonly store: Store,
    private readonly series: SeriesService,
    private readonly ctx: RecurringContext,
  ) {}

  /** The series' times and rules as stored. */
  private async timesOf(tx: Store, series: EventRow): Promise<SeriesTimes> {
    const row = await tx.occurrences.series(series.id);
    if (!row) throw new Error(`calendar: event ${series.id} is no series`);
    return this.series.seriesTimes(row, series, this.ctx.siteZone);
  }

  /**
   * An UNTIL (`YYYYMMDDTHHMMSSZ`) that ends a series just before the occurrence that starts at
   * `at`: a second after the one before it, so that a start the zone skips (02:30 becoming 03:30)
   * is not read back on the wrong side.
   */
  private async untilBefore(tx: Store, seriesId: number, at: string): Promise<string> {
    const previous = (await tx.occurrences.of(seriesId, { to: at })).filter((o) => o.original_start < at).at(-1);
    const utc = previous ? new Date(Date.parse(`${previous.start_utc.replace(' ', 'T')}Z`) + 1000).toISOString() : `${at.replace(' ', 'T')}Z`;
    return `${utc.slice(0, 19).replace(/[-:]/g, '')}Z`;
  }

  /** The occurrence a write addresses and its series, locked, or the request's error. */
  private async locked(tx: Store, target: WriteTarget<EventRow>, action: 'edit' | 'delete'): Promise<{ o: OccurrenceRow; series: EventRow }> {
    const o = await tx.occurrences.get(target.row.id, { lock: true });
    if (!o || o.cancelled) throw target.gone();
    const series = await tx.events.get(o.series_id, { lock: true });
    if (!series) throw target.gone();
    if (!this.ctx.can(action, series)) throw forbidden(this.ctx.p !== null);
    // A conditional write was checked against the occurrence as read before: it must be unchanged.
    if (
      target.conditional &&
      (o.content_id !== target.row.occurrence?.contentId || o.start_local !== target.row.start_local || o.end_local !== target.row.end_local)
    )
      throw preconditionFailed();
    return { o, series };
  }

  /**
   * The series' own page and ETag change with its occurrences: its modification date moves on,
   * by a second at least (dates have a second's precision, and two edits may share one).
   */
  private async touch(tx: Store, seriesId: number): Promise<void> {
    const row = await tx.posts.get(seriesId);
    let at = this.ctx.now;
    const last = row ? Date.parse(`${row.modified_utc.replace(' ', 'T')}Z`) : NaN;
    if (Number.isFinite(last) && at.getTime() < last + 1000) at = new Date(last + 1000);
    const stamp = nowDates(this.ctx.siteZone, at);
    await tx.posts.update(seriesId, { modified: stamp.local, modified_utc: stamp.utc });
  }

  /** Edits one occurrence (`this`), it and the following ones (`following`), or the whole series (`all`); the occurrence after. */
  async updateOccurrence(target: WriteTarget<EventRow>, input: EventInput, sent: (name: string) => boolean, scope: ChangeScope): Promise<EventRow> {
    if (scope === 'all') return this.updateAllFrom(target, input, sent);
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const { o, series } = await this.locked(tx, target, 'edit');
        if (scope === 'following' && o.original_start > series.start_local) await this.split(tx, o, series, input, sent);
        else if (scope === 'following') await this.updateSeriesIn(tx, series, input, sent, 'following');
        else await this.override(tx, o, series, input, sent);
        return (await tx.events.occurrence(o.id)) ?? present(undefined, target);
      }),
    );
  }

  /** The series updated as a whole from inside a transaction, its index following. */
  private async updateSeriesIn(tx: Store, series: EventRow, input: EventInput, sent: (name: string) => boolean, scope: ChangeScope): Promise<EventRow> {
    const updated = await this.ctx.apply(tx, { row: series, gone: () => forbidden(true) }, input, sent, { id: series.id, scope });
    await this.afterUpdate(tx, series, updated, sent('recurrence') ? { value: input.recurrence } : undefined, input.reset_overrides === true);
    return updated;
  }

  /** `this`: the event overriding the occurrence (made from the series the first time) takes the update. */
  private async override(tx: Store, o: OccurrenceRow, series: EventRow, input: EventInput, sent: (name: string) => boolean): Promise<void> {
    const contentId = o.content_id === o.series_id ? await createOverride(tx, series, o) : o.content_id;
    const shown = await tx.events.get(contentId, { lock: true });
    if (!shown) throw new Error(`calendar: occurrence ${o.id} shows a missing event`);
    const own = (name: string) => !SERIES_ONLY.has(name) && sent(name);
    const updated = await this.ctx.apply(tx, { row: shown, gone: () => forbidden(true) }, input, own, { id: o.id, scope: 'this' });
    await tx.occurrences.update(o.id, {
      start_local: updated.start_local,
      end_local: updated.end_local,
      start_utc: updated.start_utc,
      end_utc: updated.end_utc,
    });
    await this.touch(tx, series.id);
  }

  /** `all` from an occurrence: the series takes the update, its times moved as this occurrence's are. */
  private async updateAllFrom(target: WriteTarget<EventRow>, input: EventInput, sent: (name: string) => boolean): Promise<EventRow> {
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const { o, series } = await this.locked(tx, target, 'edit');
        const moved: EventInput = { ...input };
        if (input.start_date !== undefined && input.end_date !== undefined) {
          const zone = this.ctx.seriesTimesOf(series).zone;
          moved.start_date = shifted(series.start_local, o.start_local, this.ctx.wallClock('start_date', input.start_date, zone));
          moved.end_date = shifted(series.end_local, o.end_local, this.ctx.wallClock('end_date', input.end_date, zone));
        }
        await this.updateSeriesIn(tx, series, moved, sent, 'all');
        return (await tx.events.occurrence(o.id)) ?? (await tx.events.get(series.id)) ?? present(undefined, target);
      }),
    );
  }

  /**
   * After a series (or an event becoming one) was updated: its index follows its new times,
   * rules or status, checked against its new times (a 400 rolls the update back); a sent
   * recurrence that is empty stops it recurring (its occurrences and their edits go). Moved
   * times move its extra and excluded dates along.
   */
  async afterUpdate(tx: Store, before: EventRow, after: EventRow, sent: { value: unknown } | undefined, reset: boolean): Promise<void> {
    const isSeries = before.series_id === before.id;
    const times = this.ctx.seriesTimesOf(after);
    const recurrence = sent ? (this.series.check(sent.value, times, this.ctx.now) ?? null) : undefined;
    if (recurrence === null) {
      if (!isSeries) return;
      await removeOverrides(tx, await overridesOf(tx, after.id));
      await tx.occurrences.deleteSeries(after.id);
      await tx.events.updateDetails(after.id, { series_id: null });
      return;
    }
    if (recurrence) {
      if (!isSeries) await this.series.create(tx, after.id, { ...times, recurrence }, this.ctx.now);
      else await removeOverrides(tx, await this.series.reindex(tx, after.id, { ...times, recurrence }, this.ctx.now, { reset }));
    } else if (isSeries && (reset || before.start_local !== after.start_local || before.end_local !== after.end_local || before.timezone !== after.timezone)) {
      const stored = (await this.timesOf(tx, after)).recurrence;
      const moved = movedDates(stored, before.start_local, after.start_local, times.zone);
      this.series.checkTimes({ ...times, recurrence: moved }, this.ctx.now);
      await removeOverrides(tx, await this.series.reindex(tx, after.id, { ...times, recurrence: moved }, this.ctx.now, { reset }));
    }
    if (isSeries && VISIBILITY.some((k) => before[k] !== after[k])) await followSeries(tx, after, before.author);
  }

  /**
   * `following`: the series ends before the occurrence `o`, and a new series (a copy of it, with
   * a slug of its own) starts there, taking the later occurrences along with their ids, edits and
   * cancellations; then the update applies to the new series.
   */
  private async split(tx: Store, o: OccurrenceRow, series: EventRow, input: EventInput, sent: (name: string) => boolean): Promise<void> {
    const old = await this.timesOf(tx, series);
    const { rrule, rdates, exdates } = old.recurrence;
    const at = o.original_start;
    // The part before: the rule ends just before the occurrence (COUNT becomes that UNTIL).
    const before = linesOf(
      rrule && withUntil(rrule, await this.untilBefore(tx, series.id, at)),
      rdates.filter((d) => d < at),
      exdates.filter((d) => d < at),
      old.zone,
    );
    // The part from it on: the same rule from there, with what COUNT leaves.
    let after = rrule;
    const count = rrule ? /(?:^|;)COUNT=(\d+)/.exec(rrule)?.[1] : undefined;
    if (rrule && count !== undefined) {
      const ruleOnly = { ...old, recurrence: { lines: [], rrule, rdates: [], exdates: [] } };
      const done = this.series.expand(ruleOnly, undefined, shifted(at, '2000-01-01 00:00:01', '2000-01-01 00:00:00'), Number(count), { id: series.id }).starts
        .length;
      after = `${withUntil(rrule, undefined)};COUNT=${Math.max(1, Number(count) - done)}`;
    }
    const first = occurrenceTimes(old, at);
    const newId = await this.copySeries(tx, series, first);
    const afterLines = linesOf(
      after,
      rdates.filter((d) => d >= at),
      exdates.filter((d) => d >= at),
      old.zone,
    );
    // The later occurrences move to the new series with their ids; their overrides follow.
    const moving = await tx.occurrences.of(series.id, { from: at });
    for (const m of moving) {
      await tx.occurrences.update(m.id, { series_id: newId, content_id: m.content_id === series.id ? newId : m.content_id });
      if (m.content_id !== series.id) await tx.events.updateDetails(m.content_id, { series_id: newId });
    }
    const stored = await tx.occurrences.series(series.id);
    await tx.occurrences.saveSeries({ id: series.id, rules: JSON.stringify(before), indexed_until: '9999-12-31 23:59:59', complete: 1 });
    await tx.occurrences.saveSeries({
      id: newId,
      rules: JSON.stringify(afterLines),
      indexed_until: stored?.indexed_until ?? at,
      complete: stored?.complete ?? 0,
    });
    await this.touch(tx, series.id);
    tx.changes.record('event', series.id, 'updated', 'following');
    // The update: to the new series as a whole (its times move from the occurrence's, as with `all`).
    const created = await tx.events.get(newId, { lock: true });
    if (!created) throw new Error(`calendar: the series split from ${series.id} is missing`);
    const moved: EventInput = { ...input, slug: undefined };
    if (input.start_date !== undefined && input.end_date !== undefined) {
      moved.start_date = shifted(created.start_local, o.start_local, this.ctx.wallClock('start_date', input.start_date, old.zone));
      moved.end_date = shifted(created.end_local, o.end_local, this.ctx.wallClock('end_date', input.end_date, old.zone));
    }
    const own = (name: string) => name !== 'slug' && sent(name);
    const updated = await this.ctx.apply(tx, { row: created, gone: () => forbidden(true) }, moved, own, { id: o.id, scope: 'following' });
    await this.afterUpdate(tx, created, updated, sent('recurrence') ? { value: input.recurrence } : undefined, input.reset_overrides === true);
  }

  /** A new series copied from `series`, with a slug of its own, starting at `first`; its id. */
  private async copySeries(
    tx: Store,
    series: EventRow,
    first: { start_local: string; end_local: string; start_utc: string; end_utc: string },
  ): Promise<number> {
    const slug = series.slug ? (await uniquePostSlug(tx, 'event', series.slug)) || null : null;
    const id = await copyEvent(tx, series, first, slug, (own) => own);
    tx.changes.record('event', id, 'created', 'following');
    return id;
  }

  /**
   * Cancels an occurrence (`this`: it leaves every listing, its id answers 404, its edit goes)
   * or ends the series before it (`following`; from the first occurrence, the whole series goes
   * to the trash); the occurrence as it was.
   */
  async cancel(target: WriteTarget<EventRow>, scope: 'this' | 'following'): Promise<EventRow> {
    return withRetry(() =>
      this.store.transaction(async (tx) => {
        const { o, series } = await this.locked(tx, target, 'delete');
        const shown = (await tx.events.occurrence(o.id)) ?? present(undefined, target);
        await this.ctx.beforeCancel?.(shown, scope);
        if (scope === 'this') {
          await tx.occurrences.update(o.id, { cancelled: 1, content_id: o.series_id });
          if (o.content_id !== o.series_id) await removeOverrides(tx, [o.content_id]);
        } else if (o.original_start <= series.start_local) {
          // From its first occurrence on: the whole series goes, as with `all`.
          await moveToTrash(tx, EVENT, series, this.ctx.siteZone, this.ctx.now);
          const trashed = await tx.events.get(series.id);
          if (trashed) await followSeries(tx, trashed);
          tx.changes.record('event', series.id, 'updated', 'all');
          return shown;
        } else {
          const old = await this.timesOf(tx, series);
          const { rrule, rdates, exdates } = old.recurrence;
          const later = await tx.occurrences.of(series.id, { from: o.original_start });
          await removeOverrides(
            tx,
            later.filter((m) => m.content_id !== series.id).map((m) => m.content_id),
          );
          await tx.occurrences.delete(later.map((m) => m.id));
          const lines = linesOf(
            rrule && withUntil(rrule, await this.untilBefore(tx, series.id, o.original_start)),
            rdates.filter((d) => d < o.original_start),
            exdates.filter((d) => d < o.original_start),
            old.zone,
          );
          await tx.occurrences.saveSeries({ id: series.id, rules: JSON.stringify(lines), indexed_until: '9999-12-31 23:59:59', complete: 1 });
        }
        await this.touch(tx, series.id);
        tx.changes.record('event', o.id, 'deleted', scope);
        if (scope === 'following') tx.changes.record('event', series.id, 'updated', 'following');
        return shown;
      }),
    );
  }
}
