/** The carrier dialog's form: its values, a new carrier's defaults, the body they send (spec §3 Carrier). */
import { CARRIER_MODES, CARRIER_STATUS, MKT_DH_DEFAULT, SAMPLE_MODES } from '@coldwatch/contract';
import type { SceneNode } from '../../ui';
import { trimmed } from '../sys/formRules';

export interface CarrierValues {
  name: string;
  type: number;
  /** The scene picker's value: the scene id as a string. */
  sceneId: string;
  status: number;
  mode: string;
  loadType: number;
  traceable: boolean;
  alarmOn: boolean;
  isKpi: boolean;
  sampleMode: string;
  /** ΔH/R of its MKT, K (docs/statistics.md). */
  mktDh?: number | null;
  /** The bound alarm trigger; none: its contacts by e-mail with the default delay and margins. */
  triggerId?: number | null;
  tempMin?: number | null;
  tempMax?: number | null;
  humMin?: number | null;
  humMax?: number | null;
  contactIds: number[];
  sensorIds: number[];
}

/** The fields the server's field errors may name. */
export const CARRIER_FIELDS = ['name', 'type', 'sceneId', 'status', 'mode', 'loadType', 'traceable', 'alarmOn', 'isKpi', 'sampleMode', 'mktDh', 'triggerId', 'tempMin', 'tempMax', 'humMin', 'humMax', 'contactIds', 'sensorIds'];

/** A new carrier: running, normal mode, alarms on (no trigger: its contacts by e-mail, the default delay and margins), its latest value judged, no contacts or sensors yet. */
export const newCarrierValues = (defaultType?: number, defaultSceneId?: number) =>
  ({
    type: defaultType ?? 2, sceneId: defaultSceneId ? String(defaultSceneId) : undefined, status: CARRIER_STATUS.running, mode: 'normal', loadType: 0, traceable: false,
    alarmOn: true, isKpi: true, sampleMode: 'latest', mktDh: MKT_DH_DEFAULT, triggerId: null, contactIds: [], sensorIds: [],
  }) as Partial<CarrierValues>;

/** The add/update body (without id): the scene as a number, an empty range bound as null. */
export const carrierBody = (v: CarrierValues) => ({
  name: trimmed(v.name),
  type: v.type,
  sceneId: Number(v.sceneId),
  status: v.status,
  mode: v.mode as (typeof CARRIER_MODES)[number],
  loadType: v.loadType,
  traceable: v.traceable,
  alarmOn: v.alarmOn,
  isKpi: v.isKpi,
  sampleMode: v.sampleMode as (typeof SAMPLE_MODES)[number],
  // Left empty, the carrier keeps its ΔH/R.
  ...(v.mktDh === null || v.mktDh === undefined ? {} : { mktDh: v.mktDh }),
  triggerId: v.triggerId ?? null,
  tempMin: v.tempMin ?? null,
  tempMax: v.tempMax ?? null,
  humMin: v.humMin ?? null,
  humMax: v.humMax ?? null,
  contactIds: v.contactIds ?? [],
  sensorIds: v.sensorIds ?? [],
});

/** The customer owning a scene of the organisation tree. */
export function customerOfScene(root: SceneNode | undefined, sceneId: number | undefined): number | undefined {
  if (!root || !sceneId) return undefined;
  const walk = (n: SceneNode): number | undefined => {
    if (n.nodeType === 'scene' && n.scene_id === sceneId) return n.scope_id ?? undefined;
    for (const c of n.children) {
      const hit = walk(c);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk(root);
}
