import { placeApi, tripApi } from '@coldwatch/contract';
import type { FastifyRequest } from 'fastify';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './trip.repository.js';
import * as places from './place.repository.js';
import { readTrip, signTrip, traceUrl, tripLinkExpiry } from './trip.link.js';

/**
 * Transport mode's trips (spec §2 /transHistory; docs/transport.md), function object Car (the
 * vehicles' menu): viewing needs viewCar, starting a trip and making its transport code newCar,
 * ending one editCar. The transport code's page needs the code and nothing else. Places, which
 * start and end trips by themselves, are seen with viewCar and changed with editCar.
 */
export const tripRoutes: Module = (app, { db, config }) => {
  const base = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;
  serve(app, tripApi.page, { funcs: ['viewCar'] }, async (req) => repo.pageTrips(db, req.scope, req.query));
  serve(app, tripApi.detail, { funcs: ['viewCar'] }, async (req) => repo.detail(db, req.scope, req.query.id));

  serve(app, tripApi.start, { funcs: ['newCar'] }, async (req) =>
    mutate(db, req, { module: 'trip', method: 'start', content: `start a trip of carrier ${req.body.carrierId}`, params: req.body }, (q) => repo.start(q, req.scope, req.body, Date.now())),
  );
  serve(app, tripApi.end, { funcs: ['editCar'] }, async (req) =>
    mutate(db, req, { module: 'trip', method: 'end', content: `end trip ${req.body.id}`, params: req.body }, (q) => repo.end(q, req.scope, req.body, Date.now())),
  );

  serve(app, tripApi.code, { funcs: ['newCar'] }, async (req) => {
    const trip = await repo.tripOf(db, req.scope, req.body.id);
    const expiresAt = tripLinkExpiry(Date.now());
    const code = await signTrip(db, { id: trip.id, customerId: trip.customerId, exp: expiresAt });
    return { code, url: traceUrl(base(req), code), expiresAt };
  });

  serve(app, placeApi.page, { funcs: ['viewCar'] }, async (req) => places.page(db, req.scope, req.query));
  serve(app, placeApi.add, { funcs: ['editCar'] }, async (req) =>
    mutate(db, req, { module: 'place', method: 'add', content: `add place ${req.body.name}`, params: req.body }, (q) => places.add(q, req.scope, req.body)),
  );
  serve(app, placeApi.update, { funcs: ['editCar'] }, async (req) =>
    mutate(db, req, { module: 'place', method: 'update', content: `change place ${req.body.id}`, params: req.body }, (q) => places.update(q, req.scope, req.body)),
  );
  serve(app, placeApi.del, { funcs: ['editCar'] }, async (req) =>
    mutate(db, req, { module: 'place', method: 'delete', content: `delete places ${req.query.ids.join(',')}`, params: req.query }, (q) => places.remove(q, req.scope, req.query.ids)),
  );

  serve(app, tripApi.trace, { public: true }, async (req) => repo.trace(db, await readTrip(db, req.query.code)));
};
