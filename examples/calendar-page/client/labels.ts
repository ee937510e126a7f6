/** The languages the page is written in. */
export type PageLocale = 'en' | 'fr';

/** Every text the page shows, per language (the API's own texts come in the root's language). */
export interface Labels {
  pageTitle: string;
  noScript: string;
  language: string;
  otherLanguage: { label: string; href: string; lang: PageLocale };
  previous: string;
  next: string;
  today: string;
  view: string;
  month: string;
  list: string;
  filters: string;
  category: string;
  allCategories: string;
  venue: string;
  allVenues: string;
  subscribe: string;
  subscribeHint: string;
  token: string;
  tokenHint: string;
  useToken: string;
  forgetToken: string;
  signedIn: string;
  signedOut: string;
  draft: string;
  allDay: string;
  when: string;
  organizers: string;
  cost: string;
  description: string;
  notGiven: string;
  close: string;
  loading: string;
  shown: (count: number) => string;
  loadFailed: (reason: string) => string;
}

/** The page's texts in English and French. */
export const LABELS: Record<PageLocale, Labels> = {
  en: {
    pageTitle: 'Events calendar',
    noScript: 'This calendar needs JavaScript. The events are also at ../wp-json/ as JSON.',
    language: 'Language',
    otherLanguage: { label: 'Français', href: '../fr/calendar/', lang: 'fr' },
    previous: 'Previous month',
    next: 'Next month',
    today: 'Today',
    view: 'View',
    month: 'Month',
    list: 'List',
    filters: 'Filters',
    category: 'Category',
    allCategories: 'All categories',
    venue: 'Venue',
    allVenues: 'All venues',
    subscribe: 'Subscribe (iCalendar)',
    subscribeHint: 'Add this address to a calendar app to follow these events (published events only).',
    token: 'Access token',
    tokenHint: 'Kept in this tab only and sent as a Bearer header: shows the drafts it may read.',
    useToken: 'Use token',
    forgetToken: 'Forget token',
    signedIn: 'Using an access token: drafts are shown and marked.',
    signedOut: 'Not signed in: published events only.',
    draft: 'Draft',
    allDay: 'All day',
    when: 'When',
    organizers: 'Organizers',
    cost: 'Cost',
    description: 'Description',
    notGiven: 'Not given',
    close: 'Close',
    loading: 'Loading events…',
    shown: (count) => (count === 0 ? 'No events in this view.' : count === 1 ? '1 event in this view.' : `${count} events in this view.`),
    loadFailed: (reason) => `The events could not be loaded: ${reason}`,
  },
  fr: {
    pageTitle: 'Calendrier des événements',
    noScript: 'Ce calendrier a besoin de JavaScript. Les événements sont aussi en JSON sous ../wp-json/.',
    language: 'Langue',
    otherLanguage: { label: 'English', href: '../../calendar/', lang: 'en' },
    previous: 'Mois précédent',
    next: 'Mois suivant',
    today: 'Aujourd’hui',
    view: 'Affichage',
    month: 'Mois',
    list: 'Liste',
    filters: 'Filtres',
    category: 'Catégorie',
    allCategories: 'Toutes les catégories',
    venue: 'Lieu',
    allVenues: 'Tous les lieux',
    subscribe: 'S’abonner (iCalendar)',
    subscribeHint: 'Ajoutez cette adresse à une application d’agenda pour suivre ces événements (publiés seulement).',
    token: 'Jeton d’accès',
    tokenHint: 'Gardé dans cet onglet seulement et envoyé en en-tête Bearer : montre les brouillons qu’il peut lire.',
    useToken: 'Utiliser le jeton',
    forgetToken: 'Oublier le jeton',
    signedIn: 'Jeton d’accès utilisé : les brouillons sont montrés et signalés.',
    signedOut: 'Non connecté : événements publiés seulement.',
    draft: 'Brouillon',
    allDay: 'Toute la journée',
    when: 'Quand',
    organizers: 'Organisateurs',
    cost: 'Prix',
    description: 'Description',
    notGiven: 'Non indiqué',
    close: 'Fermer',
    loading: 'Chargement des événements…',
    shown: (count) => (count === 0 ? 'Aucun événement dans cette vue.' : count === 1 ? '1 événement dans cette vue.' : `${count} événements dans cette vue.`),
    loadFailed: (reason) => `Les événements n’ont pas pu être chargés : ${reason}`,
  },
};
