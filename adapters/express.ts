import { Router, type ErrorRequestHandler, type NextFunction, type Request, type Response } from 'express';
import type { Calendar, CoreRequest, User } from '../src/index.js';
import { checkCalendar, checkMountOptions, MOUNT_SHAPES } from '../src/options-mount.js';
import { answerNoRoute, answerNode, NOT_FOUND_SHAPE, nodeBody, type NodeMount, type NotFound } from './node.js';

/** Where and how a router is mounted. */
export interface ExpressMountOptions {
  /** The REST root as seen from outside; default: the path the router is mounted at. */
  root?: string;
  /** Locale of this mount (`fr` for `/fr/wp-json`); selects translated descriptions. */
  locale?: string;
  /**
   * Who is calling, from the Express request (a session, `req.user` set by Passport, …):
   * `null` for anonymous. Takes precedence over the calendar's own `getUser`.
   */
  getUser?: (req: Request) => User | null | Promise<User | null>;
  /**
   * A path below the mount that is not the calendar's: `'next'` (the default) passes it on to
   * the host's later handlers (hosts share prefixes); `'json'` answers the API's 404
   * `rest_no_route`, as WordPress does for anything under its REST root.
   */
  notFound?: NotFound;
}

const EXPRESS_MOUNT_SHAPES = { ...MOUNT_SHAPES, notFound: NOT_FOUND_SHAPE };

/** The error a host body parser (`express.json()`, `express.urlencoded()`) passes on. */
interface BodyParserError {
  type: string;
  /** The raw body, when the parser read it and could not parse it. */
  body?: unknown;
  /** The parser's limit in bytes, when it refused a body as too large. */
  limit?: unknown;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as { type?: unknown }).type === 'string' && 'status' in error;
}

/**
 * What {@link calendarRouter} gives `app.use`: the router, then the error handler that
 * answers a host body parser's failures. Express passes an error only to handlers of four
 * arguments and never into a router, so the second must sit beside the first.
 */
export type CalendarRouter = [Router, ErrorRequestHandler];

/**
 * An Express router serving the calendar's namespace: `app.use('/wp-json', calendarRouter(calendar))`.
 * Mount it under any path, as many times as there are language roots. It parses bodies
 * itself, but accepts what a host body parser already produced, and answers that parser's
 * failures under the namespace in the API's own shape (`rest_invalid_json`, 413) instead of
 * Express's HTML page.
 */
export function calendarRouter(calendar: Calendar, options: ExpressMountOptions = {}): CalendarRouter {
  checkCalendar('calendarRouter(calendar, options)', 'calendar', calendar);
  checkMountOptions('calendarRouter', options, EXPRESS_MOUNT_SHAPES);
  const router = Router();
  const mount = (req: Request, refusedBody?: NodeMount<Request>['refusedBody']): NodeMount<Request> => ({
    path: req.path,
    root: options.root ?? req.baseUrl,
    locale: options.locale,
    getUser: options.getUser,
    raw: req,
    refusedBody,
  });
  // Outside the namespace the request goes on to the host's next handler (with the parser's
  // error, if any), unless the mount answers such paths itself.
  const answer = async (req: Request, res: Response, next: NextFunction, body: CoreRequest['body'], passOn?: BodyParserError) => {
    const refusedBody = passOn?.type === 'entity.too.large' ? { limit: typeof passOn.limit === 'number' ? passOn.limit : undefined } : undefined;
    if (await answerNode(calendar, req, res, mount(req, refusedBody), body)) return;
    if (options.notFound === 'json') answerNoRoute(req, res);
    else next(passOn);
  };
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      await answer(req, res, next, await nodeBody(calendar, req));
    } catch (error) {
      next(error);
    }
  });
  // A host parser that failed has consumed the body: the core judges what it read (the raw
  // text of unparsable JSON) as it would its own, and answers a body too large for the parser
  // with a 413 naming the parser's limit (which applied before the calendar's).
  const parserErrors: ErrorRequestHandler = async (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!isBodyParserError(error)) return next(error);
    try {
      if (error.type === 'entity.too.large') await answer(req, res, next, undefined, error);
      else if (error.type === 'entity.parse.failed' && typeof error.body === 'string') await answer(req, res, next, error.body, error);
      else next(error);
    } catch (failure) {
      next(failure);
    }
  };
  return [router, parserErrors];
}
