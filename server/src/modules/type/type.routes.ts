import { typeApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { mutate } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import * as repo from './type.repository.js';

/**
 * The type catalogues (spec §2 /sys/deviceType and /sys/carrierType, menu level 2: platform
 * users whose role grants editType; §7 `share/getDeviceType`, `share/getDeviceType/{type}`,
 * `share/getCarrierType` for every signed-in user, whose pickers offer the enabled types).
 */
export const typeRoutes: Module = (app, { db }) => {
  serve(app, typeApi.devices, {}, async (req) => repo.listDeviceTypes(db, req.scope));
  serve(app, typeApi.devicesOf, {}, async (req) => repo.listDeviceTypes(db, req.scope, req.params.type));
  serve(app, typeApi.carriers, {}, async (req) => repo.listCarrierTypes(db, req.scope));
  serve(app, typeApi.updateDevice, { funcs: ['editType'] }, async (req) =>
    mutate(db, req, { module: 'type', method: 'updateDevice', content: `${req.body.enabled ? 'offer' : 'switch off'} device type ${req.body.kind} ${req.body.code}`, params: req.body }, (q) =>
      repo.updateDeviceType(q, req.body),
    ),
  );
  serve(app, typeApi.updateCarrier, { funcs: ['editType'] }, async (req) =>
    mutate(db, req, { module: 'type', method: 'updateCarrier', content: `${req.body.enabled ? 'offer' : 'switch off'} carrier type ${req.body.type}`, params: req.body }, (q) =>
      repo.updateCarrierType(q, req.body),
    ),
  );
};
