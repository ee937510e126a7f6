import { Command, Option } from 'commander';
import { collectHost, parseHosts, parsePositive, parseSince, parseUserId, runImport, type ImportCommandOptions } from './commands/import.js';
import { runMigrate, runMigrateDryRun } from './commands/migrate.js';
import { DEFAULT_MAX_PAGE_BYTES } from '../import/source.js';
import { runOccurrences } from './commands/occurrences.js';
import { parseEventCount, runSeed } from './commands/seed.js';
import { runStatus } from './commands/status.js';
import { ROLES } from '../auth/capabilities.js';
import { runToken } from './commands/token.js';
import { runImportIcs, type ImportIcsCommandOptions } from './commands/import-ics.js';
import { collectMapping, runImportCsv, type ImportCsvCommandOptions } from './commands/import-csv.js';
import { collectCategory, feedCommandOptions } from './commands/feed-options.js';
import {
  parseEvery,
  runSubscribe,
  runSubscriptionsList,
  runSubscriptionsRemove,
  runSubscriptionsRun,
  type SubscribeCommandOptions,
} from './commands/subscriptions.js';
import { packageVersion } from './package-version.js';
import { storeOptions, withStoreOptions } from './store-options.js';

/** The `calendar-events-rest` command line; each action leaves its exit status in `process.exitCode`. */
export function createProgram(): Command {
  const program = new Command('calendar-events-rest')
    .description('Prepare and try out the store of calendar-events-rest (an events-calendar REST API for Node servers).')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print this help');

  withStoreOptions(
    program
      .command('migrate')
      .description('create or upgrade the store\'s tables, printing each migration applied (or "up to date")')
      .option('--dry-run', 'run nothing: print the SQL the pending migrations would run (to review, or to run by hand)'),
  ).action(async (options: { db?: string; tablePrefix: string; dryRun?: boolean }) => {
    process.exitCode = await (options.dryRun ? runMigrateDryRun : runMigrate)(storeOptions(options));
  });

  withStoreOptions(program.command('status').description('list the applied and pending migrations, changing nothing'))
    .addHelpText('after', '\nExit status: 0 when the store is up to date, 1 when migrations are pending (or on an error).')
    .action(async (options: { db?: string; tablePrefix: string }) => {
      process.exitCode = await runStatus(storeOptions(options));
    });

  withStoreOptions(
    program
      .command('seed')
      .description('fill an empty store with a demo calendar: 500 venues, 300 organizers, 26 categories, 60 tags and N events (migrates first)')
      .requiredOption('--events <n>', 'number of events', parseEventCount),
  )
    .addHelpText('after', '\nThe store must hold no events, venues, organizers or terms yet: seed another --db or --table-prefix.')
    .action(async (options: { db?: string; tablePrefix: string; events: number }) => {
      process.exitCode = await runSeed({ ...storeOptions(options), events: options.events });
    });

  withStoreOptions(
    program
      .command('occurrences')
      .description('index the occurrences of recurring events that never end up to a date (at most ten years ahead; migrates first)')
      .requiredOption('--until <date>', 'the date to index up to (ISO 8601)', parseSince)
      .option('--timezone <zone>', 'the site time zone of the calendar (its `timezone` option)', 'UTC'),
  ).action(async (options: { db?: string; tablePrefix: string; until: Date; timezone: string }) => {
    process.exitCode = await runOccurrences({ ...storeOptions(options), until: options.until, timezone: options.timezone });
  });

  withStoreOptions(
    program
      .command('import')
      .description(
        'copy the calendar of a live site running the original plugin (or this library) into the store: terms, venues, organizers and events (migrates first; run it again to update)',
      )
      .argument('<source>', 'the REST root of the source site, e.g. https://old.example/wp-json')
      .option('--namespace <namespace>', "the namespace of the source's events API (default: the one its REST index lists; tribe/events/v1 for the original)")
      .option('--user <name>', 'a user of the source (with --password: an application password), to import what that user may read')
      .option('--password <password>', 'the application password of --user')
      .option('--auth <header>', 'the Authorization header to send instead, e.g. "Bearer …"')
      .option('--authors <file>', 'a JSON file of source author ids to user ids here, e.g. {"3": 12}')
      .option('--fallback-author <id>', 'the user of items whose source author is not in --authors (0: nobody)', parseUserId, 0)
      .option('--concurrency <n>', 'requests to the source at once', parsePositive, 4)
      .option('--rate <n>', 'requests to the source per second at most', parsePositive, 10)
      .option('--since <date>', 'leave as they are the items the source modified before this date (ISO 8601, UTC unless it names an offset)', parseSince)
      .option('--dry-run', 'write nothing: read the whole source and report what a run would create, update and leave')
      .option('--keep-ids', 'give new items their source id where it is free here (best into an empty store), so that old links keep working')
      .option('--image-hosts <hosts>', 'image hosts allowed on private addresses, comma-separated (default: $CALENDAR_IMAGE_HOSTS)', parseHosts)
      .option('--no-images', 'do not copy featured images')
      .option(
        '--allow-host <host>',
        'a host (host or host:port) the source may redirect to or serve images from on any address; repeat it for several',
        collectHost,
        [],
      )
      .option(
        '--max-page-bytes <n>',
        'the largest answer of the source read, in bytes (a page over it is reported as unread)',
        parsePositive,
        DEFAULT_MAX_PAGE_BYTES,
      )
      .option('--keep-html', "keep the source's HTML in titles and texts as an administrator's write keeps it (default: filtered as an author's write is)"),
  )
    .addHelpText(
      'after',
      '\nWithout credentials, what the public sees is imported. Items imported before are updated when the source changed them, never duplicated.',
    )
    .action(async (sourceRoot: string, options: Omit<ImportCommandOptions, 'source' | 'db'> & { db?: string }) => {
      process.exitCode = await runImport({ ...options, ...storeOptions(options), source: sourceRoot });
    });

  feedCommandOptions(
    withStoreOptions(
      program
        .command('import-ics')
        .description(
          'import an iCalendar feed (URL) or .ics file into the store once: new events created, those imported before updated, events gone from it trashed (migrates first; run it again to update)',
        )
        .argument('<source>', 'an http(s) or webcal URL, or a file')
        .option('--dry-run', 'write nothing: read the feed and report what a run would create, update and trash'),
    ),
  ).action(async (source: string, options: Omit<ImportIcsCommandOptions, 'source' | 'db'> & { db?: string }) => {
    process.exitCode = await runImportIcs({ ...options, ...storeOptions(options), source });
  });

  withStoreOptions(
    program
      .command('import-csv')
      .description(
        "import a CSV file of events once: a header row of the original CSV importer's keys (event_name, event_start_date, …) or of others mapped with --map; comma or semicolon, UTF-8 with or without BOM (migrates first; run it again to update)",
      )
      .argument('<file>', 'the CSV file')
      .option('--map <Header=key>', 'read the column of this header as this key, e.g. "Title=event_name"; repeat it for several', collectMapping, [])
      .option('--date-format <format>', "the dates' format: Y-m-d, d/m/Y, m/d/Y, d.m.Y…", 'Y-m-d')
      .option('--dry-run', 'write nothing: read the file and report what a run would create, update and trash')
      .option('--category <name>', 'a category every event gets; repeat it for several', collectCategory, [])
      .addOption(new Option('--status <status>', 'the status of the events written').choices(['publish', 'draft']).default('publish'))
      .option('--overwrite', 'also write over events edited through the API since their last import')
      .option('--max-bytes <n>', 'the largest file read, in bytes', parsePositive, 16 * 1024 * 1024)
      .option('--max-rows <n>', 'the most rows read (past them nothing is trashed)', parsePositive, 5000)
      .option('--timezone <zone>', 'the site time zone of the calendar (its `timezone` option): rows without event_timezone are read in it', 'UTC')
      .option('--author <id>', 'the user the events are written as (their author)', parseUserId, 0),
  ).action(async (file: string, options: Omit<ImportCsvCommandOptions, 'file' | 'db'> & { db?: string }) => {
    process.exitCode = await runImportCsv({ ...options, ...storeOptions(options), file });
  });

  withStoreOptions(
    program
      .command('subscribe')
      .description(
        'follow an iCalendar feed: calendars with the subscriptions option (and `subscriptions run`) read it on its interval and keep its events in sync (migrates first)',
      )
      .argument('<url>', 'an http(s) or webcal URL')
      .option('--name <name>', 'its name (default: its URL)')
      .option('--every <interval>', 'how often it is read: minutes, or 90m, 6h, 1d', parseEvery, 60)
      .option('--category <name>', 'a category every event of the feed gets; repeat it for several', collectCategory, [])
      .addOption(new Option('--status <status>', 'the status of its events').choices(['publish', 'draft']).default('publish'))
      .option('--overwrite', 'also write over events edited through the API since their last import')
      .option('--allow-host <host>', 'a host (host or host:port) the feed may be fetched from on any address; repeat it for several', collectHost, []),
  ).action(async (url: string, options: Omit<SubscribeCommandOptions, 'url' | 'db'> & { db?: string }) => {
    process.exitCode = await runSubscribe({ ...options, ...storeOptions(options), url });
  });

  const subscriptions = program.command('subscriptions').description('list, remove or run the feeds the calendar follows');
  withStoreOptions(subscriptions.command('list').description('every subscription and what its runs did')).action(
    async (options: { db?: string; tablePrefix: string }) => {
      process.exitCode = await runSubscriptionsList(storeOptions(options));
    },
  );
  withStoreOptions(subscriptions.command('remove').description('stop following a feed (its events stay)').argument('<name>', 'its name (or URL)')).action(
    async (name: string, options: { db?: string; tablePrefix: string }) => {
      process.exitCode = await runSubscriptionsRemove({ ...storeOptions(options), name });
    },
  );
  withStoreOptions(
    subscriptions
      .command('run')
      .description('run one subscription or all of them now (each unless a calendar instance is running it); exit status 1 when one failed')
      .argument('[name]', 'its name (default: all)')
      .option('--timezone <zone>', 'the site time zone of the calendar (its `timezone` option)', 'UTC'),
  ).action(async (name: string | undefined, options: { db?: string; tablePrefix: string; timezone: string }) => {
    process.exitCode = await runSubscriptionsRun({ ...storeOptions(options), name, timezone: options.timezone });
  });

  program
    .command('token')
    .description(
      "print a new role:token entry for callers with a bearer token, as bearerTokens() reads them in your server (and the example servers' CALENDAR_TOKENS); the entry on stdout, how to use it on stderr",
    )
    .addOption(new Option('--role <role>', "role of the token's user").choices([...ROLES]).default('administrator'))
    .action((options: { role: string }) => {
      process.exitCode = runToken(options);
    });

  return program;
}
