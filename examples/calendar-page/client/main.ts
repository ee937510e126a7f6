import { Calendar, type EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import listPlugin from '@fullcalendar/list';
import frLocale from '@fullcalendar/core/locales/fr';
import './page.css';
import { createApi } from './api.js';
import type { ApiEvent } from './api-types.js';
import { eventDetail } from './detail.js';
import { el, plainText } from './elements.js';
import { feedUrl, filterParams } from './feed-url.js';
import { filterControls } from './filters.js';
import { LABELS, type PageLocale } from './labels.js';
import { storedToken, tokenForm } from './token.js';
import { calendarTimes, formatTime, rangeParams, wallClock, zoneLabel } from './zoned-times.js';

/** What the server wrote into the page (examples/calendar-page/page-html.ts). */
interface PageConfig {
  locale: PageLocale;
  apiRoot: string;
  namespace: string;
}

const config = JSON.parse(document.getElementById('calendar-config')?.textContent ?? '{}') as PageConfig;
const locale = config.locale === 'fr' ? 'fr' : 'en';
const labels = LABELS[locale];
const namespaceUrl = new URL(`${config.namespace}/`, new URL(config.apiRoot, location.href));
const api = createApi(namespaceUrl, storedToken);

/** The browser's own date and time as a wall clock: "today" is the visitor's today. */
function browserNow(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

/** An API event as the calendar's input, the API's JSON kept for its content and detail. */
function calendarEvent(event: ApiEvent): EventInput {
  return {
    id: String(event.id),
    title: plainText(event.title),
    ...calendarTimes(event),
    extendedProps: { api: event },
    classNames: event.status === 'draft' ? ['is-draft'] : [],
  };
}

const status = el('p', { id: 'events-status', role: 'status', class: 'status' });
const heading = el('h2', { id: 'view-title', 'aria-live': 'polite' });
const calendarEl = el('div', { id: 'calendar', 'aria-labelledby': 'view-title' });
const subscribe = el('a', { id: 'subscribe', 'aria-describedby': 'subscribe-hint' }, labels.subscribe);
const detail = eventDetail(locale, labels);
const filters = filterControls(api, labels, () => {
  refreshFeedLink();
  calendar.refetchEvents();
});

function refreshFeedLink(): void {
  subscribe.href = feedUrl(namespaceUrl, filters.current());
}

function showError(error: unknown): void {
  status.classList.add('error');
  status.textContent = labels.loadFailed(error instanceof Error ? error.message : String(error));
}

const calendar = new Calendar(calendarEl, {
  plugins: [dayGridPlugin, listPlugin],
  locales: [frLocale],
  locale,
  // Wall times in, wall times out: no zone converts the events' own times (zoned-times.ts).
  timeZone: 'UTC',
  now: browserNow,
  initialView: 'dayGridMonth',
  headerToolbar: false,
  height: 'auto',
  fixedWeekCount: false,
  dayMaxEvents: false,
  // An evening event that ends after midnight stays on its start day only.
  nextDayThreshold: '09:00:00',
  views: { listMonth: { displayEventTime: false } },
  events(info, success, failure) {
    const params = { ...rangeParams(info.start, info.end), ...filterParams(filters.current()) };
    api.listAll<ApiEvent>('events', params).then((events) => {
      status.classList.remove('error');
      status.textContent = labels.shown(events.length);
      success(events.map(calendarEvent));
    }, failure);
  },
  eventSourceFailure: showError,
  loading(isLoading) {
    calendarEl.setAttribute('aria-busy', String(isLoading));
    if (isLoading) status.textContent = labels.loading;
  },
  datesSet(info) {
    heading.textContent = info.view.title;
    for (const button of viewButtons) button.setAttribute('aria-pressed', String(button.dataset.view === info.view.type));
  },
  eventContent(arg) {
    const event = arg.event.extendedProps.api as ApiEvent;
    // A time is written on the start day's piece only, with the event's zone.
    const time = !event.all_day && arg.isStart ? `${formatTime(locale, wallClock(event.start_date))} ${zoneLabel(event)}`.trim() : '';
    const text = [
      time ? el('span', { class: 'event-time' }, time) : undefined,
      el('span', { class: 'event-title' }, plainText(event.title)),
      event.status === 'draft' ? el('span', { class: 'badge draft' }, labels.draft) : undefined,
    ];
    // A list row stays a table row: the button is inside its cell (its click reaches eventClick).
    if (arg.view.type.startsWith('list'))
      return { domNodes: [el('button', { type: 'button', class: 'event-text event-button', 'aria-haspopup': 'dialog' }, ...text)] };
    return { domNodes: [el('span', { class: 'event-text' }, ...text)] };
  },
  eventDidMount({ el: node }) {
    // In the grid, FullCalendar makes the event's link focusable and answers Enter and Space: it acts as a button that opens a dialog.
    if (!node.matches('a')) return;
    node.setAttribute('role', 'button');
    node.setAttribute('aria-haspopup', 'dialog');
  },
  eventClick(info) {
    info.jsEvent.preventDefault();
    detail.show(info.event.extendedProps.api as ApiEvent);
  },
});

const button = (text: string, onClick: () => void, attrs: Record<string, string> = {}) => {
  const b = el('button', { type: 'button', ...attrs }, text);
  b.addEventListener('click', onClick);
  return b;
};
const viewButtons = [
  button(labels.month, () => calendar.changeView('dayGridMonth'), { 'data-view': 'dayGridMonth', 'aria-pressed': 'true' }),
  button(labels.list, () => calendar.changeView('listMonth'), { 'data-view': 'listMonth', 'aria-pressed': 'false' }),
];
const other = labels.otherLanguage;

document.body.append(
  el(
    'header',
    { class: 'page-header' },
    el('h1', {}, labels.pageTitle),
    el('nav', { 'aria-label': labels.language }, el('a', { href: other.href, hreflang: other.lang, lang: other.lang }, other.label)),
  ),
  el(
    'main',
    {},
    el(
      'div',
      { class: 'controls' },
      filters.element,
      el('p', { class: 'subscribe' }, subscribe, el('span', { id: 'subscribe-hint', class: 'hint' }, labels.subscribeHint)),
      tokenForm(labels, () => {
        filters.load().catch(showError);
        calendar.refetchEvents();
      }),
    ),
    el(
      'div',
      { class: 'toolbar' },
      el(
        'div',
        { class: 'paging' },
        button(labels.previous, () => calendar.prev()),
        button(labels.today, () => calendar.today()),
        button(labels.next, () => calendar.next()),
      ),
      heading,
      el('div', { role: 'group', 'aria-label': labels.view, class: 'views' }, ...viewButtons),
    ),
    status,
    calendarEl,
  ),
  detail.element,
);
refreshFeedLink();
calendar.render();
filters.load().catch(showError);
