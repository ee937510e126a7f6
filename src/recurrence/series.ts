/**
 * Series and their occurrence index: a recurring event is a series post (its own row holds the
 * first occurrence's times) with rules; its occurrences are rows of the index, each with an id
 * of its own that is never reused nor renumbered, listed by the archive like events. An
 * occurrence shows the series' content, or that of an event overriding it; a cancelled one
 * stays in the index, out of every listing.
 */
import type { Insertable } from 'kysely';
import { resolveZone } from '../dates/index.js';
import { invalidParams, type ApiError } from '../http/errors.js';
import type { OccurrencesTable } from '../store/database.js';
import { expandStarts, occurrenceTimes, type Expansion, type SeriesTimes } from './expand.js';
import type { OccurrenceRow, OccurrenceStore, SeriesRow } from './queries.js';
import { parseRecurrence, RecurrenceError, type Recurrence } from './rules.js';

/**
 * What the index needs of a write's transaction: its occurrence index, and to mark an event as
 * a series (the events' own queries, which sit above: structurally, not by import).
 */
export interface SeriesAccess {
  occurrences: OccurrenceStore;
  events: { updateDetails(postId: number, details: { series_id: number }): Promise<void> };
}

/** How recurring events are indexed and bounded (option `recurrence`, resolved). */
export interface RecurrenceOptions {
  /** The first occurrence id (post ids stay below it). */
  idBase: number;
  /** How far ahead a series that never ends is indexed when written, in months. */
  horizonMonths: number;
  /** How far ahead the index is ever extended, in months. */
  maxHorizonMonths: number;
  /** Occurrences a rule may have in all (one that ends) or within the horizon (one that never does). */
  maxOccurrences: number;
  /** Lines of one `recurrence`. */
  maxLines: number;
  /** RDATE and EXDATE values of one `recurrence`, together. */
  maxDates: number;
  /** Units of work one walk of a rule may spend (`walk.ts`). */
  maxCandidates: number;
}

/** The end of time for finite rules: every occurrence is indexed. */
const END_OF_TIME = '9999-12-31 23:59:59';

/** Series told of at most, before the list starts again (a bound on memory, not on reports). */
const REPORTED_MAX = 10_000;

/** Why a rule is too costly to walk: its RRULE, what it multiplies, and where the walk stopped. */
function tooCostly(recurrence: Recurrence, budget: number, reached: string | undefined): string {
  const rrule = recurrence.rrule ?? '';
  const listed = rrule
    .split(';')
    .filter((p) => /^BY/.test(p) && p.includes(','))
    .map((p) => `${p.split('=')[0]} (${p.split(',').length} values)`);
  const what = listed.length ? `its ${listed.join(', ')}` : 'its FREQ and INTERVAL';
  return `recurrence RRULE:${rrule.slice(0, 80)} is too costly to expand: ${what} make the rule look at more than ${budget} candidate dates (recurrence.maxCandidates)${reached ? ` before ${reached}` : ''}; give it an end, fewer values, or a start closer to today.`;
}

/** A 400 for the `recurrence` parameter, with the reason. */
export function recurrenceRefused(message: string): ApiError {
  return invalidParams(new Map([['recurrence', { message, detail: { code: 'rest_invalid_param', message, data: { param: 'recurrence' } } }]]));
}

/** Whether a rule ends by itself (COUNT or UNTIL), or is a list of dates. */
const finite = (r: Recurrence) => r.rrule === undefined || /(?:^|;)(COUNT|UNTIL)=/.test(r.rrule);

/** The wall clock `months` months after `now`, in UTC (index bounds are days ahead: the zone's hours do not matter). */
function monthsAhead(now: Date, months: number): string {
  const d = new Date(now.getTime());
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** The day of a wall clock, by which an occurrence keeps its id when only its time of day moves. */
const dayOf = (wallClock: string) => wallClock.slice(0, 10);

/** The rules and index of recurring events. */
export class SeriesService {
  /** Series whose rule ran out of budget, told once each (README "Recurring events", Limits). */
  readonly #reported = new Set<number>();

  constructor(
    private readonly options: RecurrenceOptions,
    /** Where a stored series that cannot be indexed whole within the budget is reported. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Whether an id is in the occurrences' range (post ids stay below it). */
  isOccurrenceId(id: number): boolean {
    return id >= this.options.idBase;
  }

  /** How far ahead occurrences are indexed at `now`. */
  horizon(now: Date): string {
    return monthsAhead(now, this.options.horizonMonths);
  }

  /** The furthest the index is ever extended at `now`. */
  maxHorizon(now: Date): string {
    return monthsAhead(now, this.options.maxHorizonMonths);
  }

  /** Most occurrences one series has in the index: `maxOccurrences` for each horizon of its life, ten at most. */
  private get maxIndexed(): number {
    return this.options.maxOccurrences * 10;
  }

  /**
   * The starts of a series in a window, its rule walked within `recurrence.maxCandidates` units
   * of work. A rule that runs out of budget on a write is refused (a 400 of `recurrence`);
   * a stored one (written before the bound, or with another) is indexed as far as the budget
   * reached, and reported once.
   */
  expand(series: SeriesTimes, from: string | undefined, to: string, max: number, stored?: { id: number }): Expansion {
    let expansion: Expansion;
    try {
      expansion = expandStarts(series, from, to, max, this.options.maxCandidates);
    } catch (e) {
      if (e instanceof RecurrenceError) throw recurrenceRefused(e.message);
      throw e;
    }
    if (!expansion.exhausted) return expansion;
    if (!stored) throw recurrenceRefused(tooCostly(series.recurrence, this.options.maxCandidates, expansion.starts.at(-1)));
    if (!this.#reported.has(stored.id)) {
      if (this.#reported.size >= REPORTED_MAX) this.#reported.clear();
      this.#reported.add(stored.id);
      this.onError(
        new Error(
          `calendar-events-rest: the occurrences of event ${stored.id} are indexed only up to ${expansion.starts.at(-1) ?? 'its start'}: ${tooCostly(series.recurrence, this.options.maxCandidates, undefined)}`,
        ),
      );
    }
    return expansion;
  }

  /**
   * A write's `recurrence` for an event at these times, checked: `undefined` for none, or a 400
   * for lines that cannot be read, sub-daily rules, rules with more than `maxOccurrences`
   * occurrences in all (a rule that ends) or between now and the horizon (one that does not),
   * and rules that would put more than ten times that in the index (a start long ago).
   */
  check(value: unknown, times: Omit<SeriesTimes, 'recurrence'>, now: Date): Recurrence | undefined {
    let recurrence: Recurrence | undefined;
    try {
      recurrence = parseRecurrence(value, times.zone, { lines: this.options.maxLines, dates: this.options.maxDates });
    } catch (e) {
      if (e instanceof RecurrenceError) throw recurrenceRefused(e.message);
      throw e;
    }
    if (!recurrence) return undefined;
    this.checkTimes({ ...times, recurrence }, now);
    return recurrence;
  }

  /** The checks of {@link check} on a series whose rules are already read (its times moved). */
  checkTimes(series: SeriesTimes, now: Date): void {
    const ends = finite(series.recurrence);
    const from = ends ? undefined : this.today(now);
    const ahead = this.expand(series, from, ends ? END_OF_TIME : this.horizon(now), this.options.maxOccurrences);
    if (ahead.more) {
      const within = ends ? 'in all' : `within ${this.options.horizonMonths} months`;
      throw recurrenceRefused(
        `recurrence gives more than ${this.options.maxOccurrences} occurrences ${within}: give it an end (COUNT or UNTIL) or repeat it less often.`,
      );
    }
    const { to } = this.bound(series.recurrence, now);
    const all = this.expand(series, undefined, to, this.maxIndexed);
    if (all.more) throw recurrenceRefused(`recurrence gives more than ${this.maxIndexed} occurrences from the event's start: start it later.`);
    if (!all.starts.length) throw recurrenceRefused("recurrence gives no occurrence: the rule has none from the event's start on.");
  }

  /** Today's start, as a wall clock (UTC: index bounds are days ahead, the zone's hours do not matter). */
  private today(now: Date): string {
    return `${now.toISOString().slice(0, 10)} 00:00:00`;
  }

  /** The times and rules of a stored series. */
  seriesTimes(row: SeriesRow, event: { start_local: string; end_local: string; timezone: string }, siteZone: string): SeriesTimes {
    // A stored zone that names no real zone (`UTCfoo` passes the write's check) reads as the site's, as for the event itself.
    const zone = event.timezone && resolveZone(event.timezone) ? event.timezone : siteZone;
    const recurrence = parseRecurrence(JSON.parse(row.rules) as string[], zone, {
      lines: Number.MAX_SAFE_INTEGER,
      dates: Number.MAX_SAFE_INTEGER,
      stored: true,
    });
    return { start: event.start_local, end: event.end_local, zone, recurrence: recurrence ?? { lines: [], rdates: [], exdates: [] } };
  }

  /** How far a series' index reaches after an expansion to `to`: its last start when the expansion was cut short (by `max` or the budget). */
  private reach(
    recurrence: Recurrence,
    starts: readonly string[],
    more: boolean,
    to: string,
    complete: number,
  ): Pick<SeriesRow, 'rules' | 'indexed_until' | 'complete'> {
    if (more) return { rules: JSON.stringify(recurrence.lines), indexed_until: starts.at(-1) ?? to, complete: 0 };
    return { rules: JSON.stringify(recurrence.lines), indexed_until: complete ? END_OF_TIME : to, complete };
  }

  /** The index bound and completeness of a series at `now`. */
  private bound(recurrence: Recurrence, now: Date): { to: string; complete: number } {
    return finite(recurrence) ? { to: END_OF_TIME, complete: 1 } : { to: this.horizon(now), complete: 0 };
  }

  /** New index rows for these original starts of a series, with new ids. */
  private async newRows(tx: SeriesAccess, seriesId: number, series: SeriesTimes, starts: readonly string[]): Promise<Insertable<OccurrencesTable>[]> {
    if (!starts.length) return [];
    const firstId = await tx.occurrences.takeIds(starts.length, this.options.idBase);
    return starts.map((start, i) => {
      const t = occurrenceTimes(series, start);
      return {
        id: firstId + i,
        series_id: seriesId,
        content_id: seriesId,
        original_start: start,
        start_local: t.start_local,
        end_local: t.end_local,
        start_utc: t.start_utc,
        end_utc: t.end_utc,
        cancelled: 0,
      };
    });
  }

  /** Makes the event `eventId` a series with these rules, and indexes its occurrences (inside the write's transaction). */
  async create(tx: SeriesAccess, eventId: number, series: SeriesTimes, now: Date): Promise<void> {
    const { to, complete } = this.bound(series.recurrence, now);
    const { starts, more, exhausted } = this.expand(series, undefined, to, this.maxIndexed, { id: eventId });
    await tx.events.updateDetails(eventId, { series_id: eventId });
    await tx.occurrences.insert(await this.newRows(tx, eventId, series, starts));
    await tx.occurrences.saveSeries({ id: eventId, ...this.reach(series.recurrence, starts, more || exhausted, to, complete) });
  }

  /**
   * The index of a series after its times or rules changed: an occurrence keeps its id (and
   * its override or cancellation, unless `reset`) when the new rules still have it, by original
   * start or else on the same day; occurrences the rules no longer have leave the index with
   * the events overriding them, and new ones get new ids. Returns the override events removed.
   */
  async reindex(tx: SeriesAccess, seriesId: number, series: SeriesTimes, now: Date, { reset = false } = {}): Promise<number[]> {
    const row = await tx.occurrences.series(seriesId);
    const { to, complete } = this.bound(series.recurrence, now);
    const bound = complete ? to : row && row.indexed_until > to && !row.complete ? row.indexed_until : to;
    const { starts, more, exhausted } = this.expand(series, undefined, bound, this.maxIndexed, { id: seriesId });
    const existing = await tx.occurrences.of(seriesId);
    const byStart = new Map(existing.map((o) => [o.original_start, o]));
    const used = new Set<number>();
    const matched = new Map<string, OccurrenceRow>();
    for (const start of starts) {
      const o = byStart.get(start);
      if (o) {
        matched.set(start, o);
        used.add(o.id);
      }
    }
    const byDay = new Map<string, OccurrenceRow>();
    for (const o of existing) if (!used.has(o.id) && !byDay.has(dayOf(o.original_start))) byDay.set(dayOf(o.original_start), o);
    for (const start of starts) {
      if (matched.has(start)) continue;
      const o = byDay.get(dayOf(start));
      if (o && !used.has(o.id)) {
        matched.set(start, o);
        used.add(o.id);
      }
    }
    const removedOverrides: number[] = [];
    const gone = existing.filter((o) => !used.has(o.id));
    for (const o of gone) if (o.content_id !== seriesId) removedOverrides.push(o.content_id);
    await tx.occurrences.delete(gone.map((o) => o.id));
    for (const [start, o] of matched) {
      const overridden = o.content_id !== seriesId;
      if (reset && overridden) removedOverrides.push(o.content_id);
      const keepOverride = overridden && !reset;
      const t = occurrenceTimes(series, start);
      // An override keeps the times it was given; the others follow the rules.
      const times = keepOverride ? {} : { start_local: t.start_local, end_local: t.end_local, start_utc: t.start_utc, end_utc: t.end_utc };
      await tx.occurrences.update(o.id, {
        original_start: start,
        ...times,
        ...(keepOverride ? {} : { content_id: seriesId }),
        ...(reset ? { cancelled: 0 } : {}),
      });
    }
    const fresh = starts.filter((s) => !matched.has(s));
    await tx.occurrences.insert(await this.newRows(tx, seriesId, series, fresh));
    await tx.occurrences.saveSeries({ id: seriesId, ...this.reach(series.recurrence, starts, more || exhausted, bound, complete) });
    return removedOverrides;
  }

  /**
   * Indexes a series further, up to `until` (at most the furthest horizon): the occurrences
   * after those already indexed. Returns how many were added.
   */
  async extend(tx: SeriesAccess, seriesId: number, series: SeriesTimes, until: string, now: Date): Promise<number> {
    const row = await tx.occurrences.series(seriesId);
    if (!row || row.complete || row.indexed_until >= until) return 0;
    const to = until < this.maxHorizon(now) ? until : this.maxHorizon(now);
    if (row.indexed_until >= to) return 0;
    const known = new Set((await tx.occurrences.of(seriesId, { from: row.indexed_until })).map((o) => o.original_start));
    const room = this.maxIndexed - (await tx.occurrences.count(seriesId));
    const { starts, more, exhausted } = this.expand(series, row.indexed_until, to, Math.max(0, room), { id: seriesId });
    const fresh = starts.filter((s) => s > row.indexed_until && !known.has(s));
    await tx.occurrences.insert(await this.newRows(tx, seriesId, series, fresh));
    // Full: indexed as far as its last occurrence, never further.
    const reached = more || exhausted ? (starts.at(-1) ?? row.indexed_until) : to;
    if (reached > row.indexed_until) await tx.occurrences.updateSeries(seriesId, { indexed_until: reached });
    return fresh.length;
  }
}
