/** The words a demo calendar is made of: places, people, genres, tags and description sentences. */
import type { Random } from './random.js';

export const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Paris',
  'Europe/Berlin',
  'Australia/Sydney',
  'UTC',
];
export const CITIES = ['Springfield', 'Riverside', 'Fairview', 'Lakeside', 'Greenville', 'Bristol', 'Clinton', 'Madison', 'Georgetown', 'Salem'];
export const STREETS = ['Main St', 'Oak Avenue', 'Harbor Road', 'Station Square', 'Mill Lane', 'Park Row', 'Church Street', 'High Street'];
export const PLACES = ['Hall', 'Theatre', 'Gallery', 'Park', 'Library', 'Community Centre', 'Arena', 'Studio', 'Club', 'Pavilion'];
export const PLACE_NAMES = ['Harbor', 'Riverside', 'Elm', 'Union', 'Victoria', 'Crescent', 'Maple', 'Northgate', 'Old Town', 'Sunset'];
export const FIRST = ['Alex', 'Sam', 'Jordan', 'Maria', 'Chen', 'Priya', 'Lucas', 'Emma', 'Noah', 'Aisha'];
export const GROUPS = ['Society', 'Collective', 'Association', 'Club', 'Foundation', 'Ensemble', 'Guild', 'Network'];

/** Category tree: parents with their children; event genres map to a child. */
export const CATEGORY_TREE: Record<string, string[]> = {
  Music: ['Jazz', 'Classical', 'Rock', 'Folk'],
  Arts: ['Theatre', 'Exhibitions'],
  Family: ['Kids', 'Workshops'],
  Sports: ['Running', 'Cycling'],
  Food: ['Tastings', 'Markets'],
  Learning: ['Talks', 'Courses'],
  Community: ['Volunteering', 'Meetups'],
  Wellness: ['Yoga', 'Meditation'],
};
export const GENRE_WORDS: Record<string, string[]> = {
  Jazz: ['Jazz Night', 'Swing Evening', 'Jazz Brunch'],
  Classical: ['String Quartet', 'Piano Recital', 'Chamber Concert'],
  Rock: ['Rock Showcase', 'Indie Live', 'Garage Bands'],
  Folk: ['Folk Session', 'Acoustic Evening', 'Ceilidh'],
  Theatre: ['Improv Show', 'Stage Reading', 'Comedy Night'],
  Exhibitions: ['Gallery Opening', 'Photo Exhibition', 'Print Fair'],
  Kids: ['Story Time', 'Puppet Show', 'Family Fun Day'],
  Workshops: ['Pottery Workshop', 'Coding Workshop', 'Sketching Class'],
  Running: ['Park Run', '10K Race', 'Trail Run'],
  Cycling: ['Group Ride', 'Bike Repair Clinic', 'Century Ride'],
  Tastings: ['Wine Tasting', 'Cheese Tasting', 'Coffee Cupping'],
  Markets: ['Farmers Market', 'Night Market', 'Craft Market'],
  Talks: ['Author Talk', 'Science Talk', 'History Lecture'],
  Courses: ['Language Course', 'First Aid Course', 'Photography Course'],
  Volunteering: ['Beach Clean-up', 'Tree Planting', 'Food Bank Shift'],
  Meetups: ['Tech Meetup', 'Book Club', 'Board Game Night'],
  Yoga: ['Sunrise Yoga', 'Yoga in the Park', 'Vinyasa Flow'],
  Meditation: ['Guided Meditation', 'Mindfulness Hour', 'Sound Bath'],
};
export const ADJECTIVES = ['Summer', 'Winter', 'Spring', 'Autumn', 'Late', 'Open Air', 'Monthly', 'Weekend', 'Grand', 'Friendly'];
export const TAG_NAMES = [
  'free',
  'outdoor',
  'indoor',
  'family-friendly',
  'accessible',
  'beginner',
  'advanced',
  'evening',
  'morning',
  'weekend',
  'online',
  'tickets',
  'donation',
  'series',
  'festival',
  'local',
  'international',
  'students',
  'seniors',
  'pets',
  'live music',
  'dance',
  'film',
  'poetry',
  'science',
  'history',
  'nature',
  'tech',
  'crafts',
  'cooking',
  'wine',
  'beer',
  'coffee',
  'vegan',
  'charity',
  'networking',
  'lgbtq',
  'women',
  'kids',
  'teens',
  'workshop',
  'lecture',
  'tour',
  'exhibition',
  'market',
  'sale',
  'fitness',
  'running',
  'cycling',
  'yoga',
  'meditation',
  'health',
  'art',
  'design',
  'photography',
  'theatre',
  'comedy',
  'opera',
  'jazz',
  'classical',
];
export const SENTENCES = [
  'Join us for an evening you will not forget, with friends old and new.',
  'Doors open thirty minutes before the start; seating is first come, first served.',
  'Light refreshments are served during the interval, and the bar stays open until late.',
  'The programme is suitable for all ages, although some parts may be loud for very young children.',
  'Please bring a water bottle, comfortable shoes and a sense of adventure.',
  'Our volunteers will be on hand to answer questions and guide you around the venue.',
  'Tickets are limited, so we recommend booking early to avoid disappointment.',
  'The venue is step-free and has accessible toilets; assistance dogs are welcome.',
  'Parking is available nearby, and the bus stops right outside the main entrance.',
  'All proceeds go towards keeping our community programmes free for everyone.',
  "This season's line-up brings together local talent and visiting artists from abroad.",
  'Photography is allowed without flash; recordings may be shared on our channels.',
];

/** `count` paragraphs of 3–6 sentences, separated by blank lines (as WordPress stores content). */
export function paragraphs(r: Random, count: number): string {
  const out: string[] = [];
  for (let p = 0; p < count; p++) {
    const n = 3 + r.int(4);
    const s: string[] = [];
    for (let i = 0; i < n; i++) s.push(r.pick(SENTENCES));
    out.push(s.join(' '));
  }
  return out.join('\n\n');
}

/** A URL slug of ASCII text. */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
