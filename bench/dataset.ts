/** Seeded benchmark calendars on disk (bench/.data), reused when asked to. */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedCalendar, type SeedFixtures } from './seed.js';

/** Where seeded files live (ignored by git). */
export const DATA_DIR = 'bench/.data';

/** The pristine SQLite file of a size and its fixtures file. */
export function datasetPaths(events: number): { db: string; fixtures: string } {
  return { db: join(DATA_DIR, `events-${events}.sqlite`), fixtures: join(DATA_DIR, `events-${events}.json`) };
}

/**
 * A seeded SQLite calendar of `events` events: seeded now, or (with `reuse`) the one left
 * by an earlier run of the same day, whose fixtures still point into the default window.
 */
export async function sqliteDataset(events: number, reuse: boolean): Promise<SeedFixtures & { reused: boolean }> {
  mkdirSync(DATA_DIR, { recursive: true });
  const paths = datasetPaths(events);
  if (reuse && existsSync(paths.db) && existsSync(paths.fixtures)) {
    const saved = JSON.parse(readFileSync(paths.fixtures, 'utf8')) as SeedFixtures & { day: string };
    if (saved.day === new Date().toISOString().slice(0, 10)) return { ...saved, reused: true };
  }
  const fixtures = await seedCalendar({ target: paths.db, events });
  writeFileSync(paths.fixtures, JSON.stringify({ ...fixtures, day: new Date().toISOString().slice(0, 10) }));
  return { ...fixtures, reused: false };
}

/** A private copy of a pristine dataset for one server (writes must not leak into the next run). */
export function workingCopy(events: number, label: string): { file: string; remove: () => void } {
  const file = join(DATA_DIR, `events-${events}-${label}.sqlite`);
  const remove = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  };
  remove();
  copyFileSync(datasetPaths(events).db, file);
  return { file, remove };
}
