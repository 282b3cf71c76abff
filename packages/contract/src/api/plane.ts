import { z } from 'zod';
import { id, idParams, route } from './route.js';
import { liveSensor } from './carrier.js';

/**
 * Floor plans (spec §2 /databoard floor-plan view, §3 scene funcType 1, §7 home/scene calls): a
 * picture on a floor-plan node and the sensors placed on it, at fractions (0..1) of the
 * picture's width and height so that the plan scales with the screen.
 */

/** Spec §5 Uploads: pictures JPG or PNG; the larger of the spec's two limits, for a drawing of a whole floor. */
export const PLANE_MAX_BYTES = 20 * 1024 * 1024;

const fraction = z.number().min(0, { error: 'errors.rule.planePosition' }).max(1, { error: 'errors.rule.planePosition' });

export const planePosition = z.object({ sensorId: z.number().int().positive(), x: fraction, y: fraction });

export const placedSensor = liveSensor.extend({
  x: z.number(),
  y: z.number(),
  carrierName: z.string().nullable(),
  /** The carrier's range, so that live values are coloured as they arrive. */
  tempMin: z.number().nullable(),
  tempMax: z.number().nullable(),
});
export type PlacedSensor = z.infer<typeof placedSensor>;

export const unplacedSensor = z.object({ id: z.number().int(), devNo: z.string(), type: z.string(), carrierId: z.number().int().nullable(), carrierName: z.string().nullable() });

const sceneQuery = z.object({ sceneId: id });

export const planeApi = {
  upload: route({
    method: 'POST',
    path: '/service/home/scene/plane/upload',
    tag: 'plane',
    summary: 'Upload the picture of a floor-plan node (multipart; JPG or PNG under 20 MB)',
    query: sceneQuery,
    result: z.object({ sceneId: z.number().int(), size: z.number().int(), mime: z.string() }),
  }),
  image: route({ method: 'GET', path: '/service/home/scene/plane/image', tag: 'plane', summary: 'The picture of a floor-plan node', query: sceneQuery.extend({ v: z.string().optional() }), result: z.unknown(), raw: 'file' }),
  info: route({
    method: 'GET',
    path: '/service/home/scene/plane/info',
    tag: 'plane',
    summary: 'Whether a floor-plan node has a picture, and when it changed',
    query: sceneQuery,
    result: z.object({ sceneId: z.number().int(), label: z.string(), hasImage: z.boolean(), updatedAt: z.number().nullable() }),
  }),
  save: route({
    method: 'POST',
    path: '/service/home/scene/save/plane',
    tag: 'plane',
    summary: 'Place sensors on a floor plan: the list replaces the plan\'s placements',
    body: z.object({ sceneId: z.number().int().positive(), positions: z.array(planePosition).max(2000) }),
    result: z.object({ placed: z.number().int() }),
  }),
  unbound: route({
    method: 'GET',
    path: '/service/home/scene/position/device/unBind',
    tag: 'plane',
    summary: 'Sensors of the plan\'s customer not yet placed on any floor plan',
    query: sceneQuery,
    result: z.array(unplacedSensor),
  }),
  bound: route({
    method: 'GET',
    path: '/service/home/scene/position/device/bind/:id',
    tag: 'plane',
    summary: 'The sensors placed on floor plan {id}, with their positions and latest values',
    params: idParams,
    result: z.array(placedSensor),
  }),
};
