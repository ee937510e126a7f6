/**
 * Subscriptions as rows of the store (`subscriptions`, migration 009): added by the option or
 * the command line, claimed by one instance at a time through a lease (as webhook cursors are),
 * and updated with what each run did.
 */
import type { Kysely, Selectable } from 'kysely';
import type { FeedReport } from '../feeds/apply.js';
import type { Database, SubscriptionsTable } from '../store/database.js';
import type { SubscriptionSettings, SubscriptionStatus } from './settings.js';

/** A subscription's row. */
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** What a run did, as its row records it. */
export interface RunOutcome {
  outcome: 'imported' | 'not-modified' | 'failed';
  error?: string;
  report?: FeedReport;
  validators?: { etag: string; lastModified: string };
}

/** The settings of a row (stored as JSON). */
export function settingsOf(row: SubscriptionRow): SubscriptionSettings {
  const s = JSON.parse(row.settings) as Partial<SubscriptionSettings>;
  return {
    everyMinutes: s.everyMinutes ?? 60,
    categories: s.categories ?? [],
    status: s.status === 'draft' ? 'draft' : 'publish',
    overwrite: s.overwrite === true,
    allowHosts: s.allowHosts ?? [],
  };
}

/** A row as its status shows it. */
export function statusOf(row: SubscriptionRow, now: Date): SubscriptionStatus {
  return {
    name: row.name,
    url: row.url,
    settings: settingsOf(row),
    origin: row.origin,
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    lastOutcome: row.last_outcome,
    lastError: row.last_error,
    ...(row.last_report ? { lastReport: JSON.parse(row.last_report) as FeedReport } : {}),
    runs: Number(row.runs),
    notModified: Number(row.not_modified),
    failures: Number(row.failures),
    running: row.lease_owner !== '' && row.lease_until > now.toISOString(),
  };
}

/** Entries of a report's lists kept in the row (a text column holds 64 KiB on MySQL). */
const KEPT = 20;

/** A report as a row keeps it: its counts, and the first of its skipped entries and warnings, shortened. */
function storedReport(report: FeedReport): string {
  return JSON.stringify({
    ...report,
    skipped: report.skipped.slice(0, KEPT).map((s) => ({ uid: s.uid.slice(0, 200), reason: s.reason.slice(0, 300) })),
    warnings: report.warnings.slice(0, KEPT).map((w) => w.slice(0, 300)),
  });
}

/** The store's subscriptions. */
export class SubscriptionRows {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every subscription, by name. */
  list(): Promise<SubscriptionRow[]> {
    return this.db.selectFrom('subscriptions').selectAll().orderBy('name').execute();
  }

  get(name: string): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Adds a subscription, or changes the settings of one of that name (what its runs did is kept; a new URL is read anew). */
  async save(name: string, url: string, settings: SubscriptionSettings, origin: 'option' | 'cli'): Promise<void> {
    const existing = await this.get(name);
    const json = JSON.stringify(settings);
    if (existing) {
      if (existing.url === url && existing.settings === json && existing.origin === origin) return;
      const fresh = existing.url !== url ? { etag: '', last_modified: '', next_run_at: '' } : {};
      await this.db
        .updateTable('subscriptions')
        .set({ url, settings: json, origin, ...fresh })
        .where('name', '=', name)
        .execute();
      return;
    }
    await this.db
      .insertInto('subscriptions')
      .values({
        name,
        url,
        settings: json,
        origin,
        etag: '',
        last_modified: '',
        next_run_at: '',
        lease_owner: '',
        lease_until: '',
        last_run_at: '',
        last_outcome: '',
        last_error: '',
        last_report: '',
        runs: 0,
        not_modified: 0,
        failures: 0,
      })
      .execute()
      // Another instance added it first.
      .catch(async (e: unknown) => {
        if (!(await this.get(name))) throw e;
      });
  }

  /** Removes a subscription (its events stay); whether there was one. */
  async remove(name: string): Promise<boolean> {
    const r = await this.db.deleteFrom('subscriptions').where('name', '=', name).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * Takes the lease of a subscription for `leaseMs` when no other instance holds it (and, unless
   * `force`, when it is due); whether it was taken.
   */
  async claim(name: string, owner: string, leaseMs: number, now: Date, force: boolean): Promise<boolean> {
    const at = now.toISOString();
    let query = this.db
      .updateTable('subscriptions')
      .set({ lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('lease_until', '<', at), eb('lease_owner', '=', '')]));
    if (!force) query = query.where('next_run_at', '<=', at);
    const r = await query.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives the lease back without recording a run (one stopped as its calendar closed: due again at once). */
  async release(name: string, owner: string): Promise<void> {
    await this.db.updateTable('subscriptions').set({ lease_owner: '', lease_until: '' }).where('name', '=', name).where('lease_owner', '=', owner).execute();
  }

  /** Records a run and gives the lease back (only the lease's owner: one whose lease ran out writes nothing). */
  async finish(name: string, owner: string, run: RunOutcome, everyMinutes: number, now: Date): Promise<void> {
    await this.db
      .updateTable('subscriptions')
      .set((eb) => ({
        lease_owner: '',
        lease_until: '',
        last_run_at: now.toISOString(),
        next_run_at: new Date(now.getTime() + everyMinutes * 60_000).toISOString(),
        last_outcome: run.outcome,
        last_error: (run.error ?? '').slice(0, 2000),
        runs: eb('runs', '+', 1),
        not_modified: eb('not_modified', '+', run.outcome === 'not-modified' ? 1 : 0),
        failures: eb('failures', '+', run.outcome === 'failed' ? 1 : 0),
        ...(run.report ? { last_report: storedReport(run.report) } : {}),
        ...(run.validators ? { etag: run.validators.etag, last_modified: run.validators.lastModified } : {}),
      }))
      .where('name', '=', name)
      .where('lease_owner', '=', owner)
      .execute();
  }
}
