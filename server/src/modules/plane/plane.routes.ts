import multipart from '@fastify/multipart';
import { PLANE_MAX_BYTES, planeApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { notFound } from '../../platform/http/errors.js';
import { serve } from '../../platform/http/route.js';
import { readImageLogged } from '../../platform/http/upload.js';
import * as repo from './plane.repository.js';

/** Floor plans: the picture of a funcType 1 node and the sensors placed on it (spec §2, §7 home/scene). */
export const planeRoutes: Module = async (app, { db }) => {
  await app.register(multipart, { throwFileSizeLimit: false, limits: { files: 1, fields: 10 } });

  serve(app, planeApi.upload, { funcs: ['editScene'] }, async (req) => {
    const entry = { module: 'scene', method: 'planeUpload', content: `upload floor plan of scene ${req.query.sceneId}` };
    const img = await readImageLogged(db, req, PLANE_MAX_BYTES, 'errors.upload.tooLarge20m', entry);
    return mutate(db, req, { ...entry, params: { sceneId: req.query.sceneId, size: img.data.length, mime: img.mime } }, (q) => repo.saveImage(q, req.scope, req.query.sceneId, img));
  });

  serve(app, planeApi.image, { funcs: ['viewScene'] }, async (req, reply) => {
    const f = await repo.image(db, req.scope, req.query.sceneId);
    if (!f) throw notFound();
    // Served as the image it was checked to be; the client busts the cache with ?v=updatedAt.
    reply.type(f.mime).header('cache-control', 'private, max-age=86400').header('content-disposition', 'inline; filename="plane"');
    return f.data;
  });

  serve(app, planeApi.info, { funcs: ['viewScene'] }, async (req) => repo.info(db, req.scope, req.query.sceneId));

  serve(app, planeApi.save, { funcs: ['editScene'] }, async (req) =>
    mutate(db, req, { module: 'scene', method: 'savePlane', content: `place ${req.body.positions.length} devices on scene ${req.body.sceneId}`, params: req.body }, (q) =>
      repo.savePositions(q, req.scope, req.body.sceneId, req.body.positions),
    ),
  );

  serve(app, planeApi.unbound, { funcs: ['viewScene'] }, async (req) => repo.unplaced(db, req.scope, req.query.sceneId));

  serve(app, planeApi.bound, { funcs: ['viewScene'] }, async (req) => repo.placed(db, req.scope, req.params.id));
};
