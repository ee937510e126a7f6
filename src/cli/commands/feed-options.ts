import { InvalidArgumentError, Option, type Command } from 'commander';
import { FEED_DEFAULTS } from '../../feeds/import-feed.js';
import { collectHost, parsePositive, parseUserId } from './import.js';

/** One `--category`, added to those given before. */
export function collectCategory(value: string, previous: string[]): string[] {
  const name = value.trim();
  if (!name) throw new InvalidArgumentError('It must be a category name.');
  return [...previous, name];
}

/** Adds the options every command that reads a feed takes (`import-ics`, `subscribe`). */
export function feedCommandOptions(command: Command): Command {
  return command
    .option('--category <name>', 'a category every event of the feed gets (created when missing); repeat it for several', collectCategory, [])
    .addOption(new Option('--status <status>', 'the status of the events written').choices(['publish', 'draft']).default('publish'))
    .option('--overwrite', 'also write over events edited through the API since their last import (by default they are left alone)')
    .option('--allow-host <host>', 'a host (host or host:port) the feed may be fetched from on any address; repeat it for several', collectHost, [])
    .option('--max-bytes <n>', 'the largest feed read, in bytes', parsePositive, FEED_DEFAULTS.maxBytes)
    .option('--max-events <n>', 'the most events read from the feed (past them nothing is trashed)', parsePositive, FEED_DEFAULTS.maxEvents)
    .option('--timeout-ms <n>', 'the time limit of fetching the feed, in milliseconds', parsePositive, FEED_DEFAULTS.timeoutMs)
    .option('--timezone <zone>', 'the site time zone of the calendar (its `timezone` option): floating times are read in it', 'UTC')
    .option('--author <id>', 'the user the events are written as (their author)', parseUserId, 0);
}
