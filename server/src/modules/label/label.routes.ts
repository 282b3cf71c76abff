import { labelApi } from '@coldwatch/contract';
import type { Module } from '../../deps.js';
import { writeLog } from '../../platform/audit/audit.js';
import { serve } from '../../platform/http/route.js';
import { attachment } from '../report/reports.js';
import { renderLabels } from './label.pdf.js';
import * as repo from './label.repository.js';

/**
 * Sensor labels (spec §3 "labels per page"; docs/devices.md "Labels"): `POST /service/label/sensor`
 * with the sensors' ids answers an A4 PDF with as many labels a page as the parameter says. Any
 * sensor the caller does not see: 404 for the whole print. The print is in the system log.
 */
export const labelRoutes: Module = (app, { db }) => {
  serve(app, labelApi.sensors, { funcs: ['viewSensor'] }, async (req, reply) => {
    const labels = await repo.sensorLabels(db, req.scope, req.body.ids);
    const pdf = await renderLabels(labels, await repo.labelsPerPage(db));
    await writeLog(db, req, { module: 'sensor', method: 'labels', content: `print ${labels.length} sensor labels`, params: req.body }, 1);
    reply.type('application/pdf').header('content-disposition', attachment('sensor-labels.pdf')).header('cache-control', 'no-store');
    return pdf;
  });
};
