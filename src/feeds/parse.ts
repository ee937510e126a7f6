/**
 * An iCalendar file read in slices: its VEVENT and VTIMEZONE components are found by their
 * BEGIN and END lines (a linear scan) and each is parsed by ical.js on its own, the event loop
 * given a turn between slices (`slices.ts`). One component that ical.js cannot read is
 * reported and left out; the others are read. A component larger than {@link MAX_COMPONENT_CHARS}
 * is left out unread, and events past `maxEvents` are counted, not read.
 */
import ICAL from 'ical.js';
import { yieldIfLate, type SliceClock } from './slices.js';

/** The largest VEVENT or VTIMEZONE read (characters): ical.js parses one in a single stretch. */
export const MAX_COMPONENT_CHARS = 256 * 1024;

/** What a feed holds. */
export interface ParsedFeed {
  events: ICAL.Component[];
  /** VTIMEZONE components by TZID. */
  timezones: Map<string, ICAL.Component>;
  /** The calendar's name (`X-WR-CALNAME`). */
  name?: string;
  /** VEVENTs past `maxEvents`, not read. */
  leftOut: number;
  /** Components that could not be read, with why. */
  unreadable: string[];
}

/** A file that is not an iCalendar file. */
export class NotICalendar extends Error {}

/** The value of a calendar-level property in the header (before the first component). */
function headerProperty(header: string, name: string): string | undefined {
  const m = new RegExp(`^${name}(?:;[^:\\r\\n]*)?:(.*)$`, 'im').exec(header);
  return m?.[1]?.trim() || undefined;
}

/** Reads the components of an iCalendar text; at most `maxEvents` VEVENTs. */
export async function parseFeed(text: string, options: { maxEvents: number; clock: SliceClock }): Promise<ParsedFeed> {
  const body = text.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR\s*$/im.test(body.slice(0, 1024))) throw new NotICalendar('not an iCalendar file (it does not begin with BEGIN:VCALENDAR)');
  const out: ParsedFeed = { events: [], timezones: new Map(), leftOut: 0, unreadable: [] };
  const boundary = /^(BEGIN|END):(VEVENT|VTIMEZONE)[ \t]*\r?$/gim;
  let open: { name: string; start: number } | undefined;
  let firstComponent = -1;
  let count = 0;
  for (let m = boundary.exec(body); m; m = boundary.exec(body)) {
    const [, verb = '', rawName = ''] = m;
    const name = rawName.toUpperCase();
    if (verb.toUpperCase() === 'BEGIN') {
      if (firstComponent < 0) firstComponent = m.index;
      // A BEGIN inside an open component of the same kind: the first was never ended.
      if (open) out.unreadable.push(`a ${open.name} without its END line`);
      open = { name, start: m.index };
      continue;
    }
    if (!open || open.name !== name) continue;
    const chunk = body.slice(open.start, m.index + m[0].length);
    const kind = open.name;
    open = undefined;
    if (kind === 'VEVENT' && ++count > options.maxEvents) {
      out.leftOut++;
      continue;
    }
    if (chunk.length > MAX_COMPONENT_CHARS) {
      out.unreadable.push(`a ${kind} of ${chunk.length} characters (more than ${MAX_COMPONENT_CHARS})`);
      continue;
    }
    await yieldIfLate(options.clock);
    let component: ICAL.Component;
    try {
      component = new ICAL.Component(ICAL.parse(chunk) as unknown[]);
    } catch (e) {
      out.unreadable.push(`a ${kind}: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
      continue;
    }
    if (kind === 'VEVENT') out.events.push(component);
    else {
      const tzid = component.getFirstPropertyValue('tzid');
      if (typeof tzid === 'string') out.timezones.set(tzid, component);
    }
  }
  const header = firstComponent < 0 ? body : body.slice(0, firstComponent);
  out.name = headerProperty(header, 'X-WR-CALNAME');
  return out;
}
