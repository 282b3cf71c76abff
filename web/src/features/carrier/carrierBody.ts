import type { CarrierRow } from '@coldwatch/contract';

/** A carrier's detail as the update body that leaves it as it is (callers override what they change). */
export const updateBodyOf = (c: CarrierRow & { contactIds: number[] }) => ({
  id: c.id,
  name: c.name,
  type: c.type,
  sceneId: c.sceneId,
  status: c.status,
  alarmOn: c.alarmOn,
  mode: c.mode,
  loadType: c.loadType,
  traceable: c.traceable,
  isKpi: c.isKpi,
  sampleMode: c.sampleMode,
  triggerId: c.triggerId,
  tempMin: c.tempMin,
  tempMax: c.tempMax,
  humMin: c.humMin,
  humMax: c.humMax,
  contactIds: c.contactIds,
});
