/** What the browser test seeds through the API, and the month it is in. */
export interface SeededCalendar {
  /** `YYYY-MM` of the seeded month. */
  month: string;
  categories: { music: number; talks: number };
  venues: { hall: number; library: number };
}

/** The zone of the late event: 16–17 hours behind the browser's (Asia/Tokyo). */
export const EVENT_ZONE = 'America/Los_Angeles';

/** The month after the one `today` (`YYYY-MM-DD`) is in. */
export function nextMonth(today: string): string {
  const [year, month] = today.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
}

/**
 * Seeds the calendar through its REST API as an administrator: two categories, two venues, an
 * organizer and, in `month`, an event at 23:30 in Los Angeles on the 12th (the 13th in Tokyo), one
 * at 00:30 in Auckland on the 15th (the 14th in Tokyo), a draft on the 20th and an all-day event
 * on the 22nd.
 */
export async function seedCalendar(namespaceUrl: string, token: string, month: string): Promise<SeededCalendar> {
  const post = async (path: string, body: Record<string, unknown>): Promise<{ id: number }> => {
    const response = await fetch(`${namespaceUrl}/${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { id: number };
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const music = await post('categories', { name: 'Music' });
  const talks = await post('categories', { name: 'Talks' });
  const hall = await post('venues', {
    venue: 'Harbor Hall',
    address: '1 Main St',
    city: 'Springfield',
    stateprovince: 'IL',
    zip: '62701',
    country: 'United States',
  });
  const library = await post('venues', { venue: 'Old Town Library', address: '4 Quay Street', city: 'Auckland', zip: '1010', country: 'New Zealand' });
  const organizer = await post('organizers', { organizer: 'Arts Council', email: 'info@arts.example' });
  const day = (d: number) => `${month}-${String(d).padStart(2, '0')}`;
  await post('events', {
    title: 'Late show',
    start_date: `${day(12)} 23:30:00`,
    end_date: `${day(13)} 00:45:00`,
    timezone: EVENT_ZONE,
    venue: hall.id,
    organizer: [organizer.id],
    categories: [music.id],
    cost: '$15',
    description: '<p>An evening of <strong>jazz</strong> by the harbour.</p>',
    status: 'publish',
  });
  await post('events', {
    title: 'Early bird talk',
    start_date: `${day(15)} 00:30:00`,
    end_date: `${day(15)} 01:30:00`,
    timezone: 'Pacific/Auckland',
    venue: library.id,
    categories: [talks.id],
    cost: '5',
    status: 'publish',
  });
  await post('events', {
    title: 'Secret rehearsal',
    start_date: `${day(20)} 19:00:00`,
    end_date: `${day(20)} 21:00:00`,
    timezone: EVENT_ZONE,
    venue: hall.id,
    categories: [music.id],
    status: 'draft',
  });
  await post('events', {
    title: 'Book fair',
    start_date: `${day(22)} 00:00:00`,
    end_date: `${day(22)} 23:59:59`,
    all_day: true,
    timezone: 'Europe/Paris',
    venue: library.id,
    categories: [talks.id],
    status: 'publish',
  });
  return { month, categories: { music: music.id, talks: talks.id }, venues: { hall: hall.id, library: library.id } };
}
