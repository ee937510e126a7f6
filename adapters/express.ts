import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Calendar } from '../src/index.js';
import { readNodeBody } from './node-body.js';

/** Where and how a router is mounted. */
export interface ExpressMountOptions {
  /** The REST root as seen from outside; default: the path the router is mounted at. */
  root?: string;
  /** Locale of this mount (`fr` for `/fr/wp-json`); selects translated descriptions. */
  locale?: string;
}

/**
 * An Express router serving the calendar's namespace. Mount it under any path, as many
 * times as there are language roots. It parses bodies itself, but accepts what a host
 * body parser already produced.
 */
export function calendarRouter(calendar: Calendar, options: ExpressMountOptions = {}): Router {
  const router = Router();
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const body = req.body !== undefined ? req.body : await readNodeBody(req, calendar.options.limits.bodyBytes + 1);
      const q = req.originalUrl.indexOf('?');
      const response = await calendar.handle({
        method: req.method,
        path: req.path,
        query: q >= 0 ? req.originalUrl.slice(q + 1) : '',
        headers: req.headers,
        body,
        root: options.root ?? req.baseUrl,
        locale: options.locale,
        protocol: 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http',
        raw: req,
      });
      if (!response) return next();
      res.status(response.status).set(response.headers);
      res.end(response.body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
