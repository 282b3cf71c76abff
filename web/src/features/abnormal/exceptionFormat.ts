/** Pure helpers of the exception list: an exception's seconds, its value's unit, its history window (durations are formatted by lib/format). */

/** Seconds of an exception: its recorded duration, or for an ongoing one the time since start. */
export function exceptionSeconds(row: { ongoing: boolean; startTs: number; endTs?: number | null; durationS?: number | null }, now = Date.now()): number {
  if (!row.ongoing && row.durationS !== null && row.durationS !== undefined) return row.durationS;
  const end = row.ongoing ? now : (row.endTs ?? now);
  return Math.max(0, Math.round((end - row.startTs) / 1000));
}

/** Unit of a category's values. */
export function categoryUnit(category: string): string {
  if (category.startsWith('temp')) return '°C';
  if (category.startsWith('hum')) return '%RH';
  return '';
}

/** Does the category carry a measured value (data exception) or not (connection, power)? */
export const isDataCategory = (category: string) => category.startsWith('temp') || category.startsWith('hum');

/** Window of history to show around an exception: 1 h before its start to 1 h after its end (or now). */
export function historyWindow(row: { startTs: number; endTs?: number | null; ongoing: boolean }, now = Date.now()): [number, number] {
  const pad = 60 * 60 * 1000;
  const end = row.ongoing || !row.endTs ? now : Math.min(now, row.endTs + pad);
  return [row.startTs - pad, end];
}

/**
 * What an exception names as its device: its sensor; a data exception without one is the
 * carrier's value; a gateway, display or relay exception (no sensor) its gateway's number and
 * name; else nothing.
 */
export function deviceOf(row: { devNo: string | null; gatewaySn?: string | null; gatewayName?: string | null; type: string; carrierId?: number | null }): { devNo: string } | { gateway: string } | { carrierValue: true } | null {
  if (row.devNo) return { devNo: row.devNo };
  if (row.type === 'data' && (row.carrierId === undefined || row.carrierId !== null)) return { carrierValue: true };
  if (row.gatewaySn) return { gateway: row.gatewayName && row.gatewayName !== row.gatewaySn ? `${row.gatewaySn} · ${row.gatewayName}` : row.gatewaySn };
  return null;
}

/** The device as text (the detail's line): the carrier value's label given. */
export function deviceText(row: Parameters<typeof deviceOf>[0], carrierValue: string): string {
  const d = deviceOf(row);
  if (!d) return '--';
  return 'carrierValue' in d ? carrierValue : 'devNo' in d ? d.devNo : d.gateway;
}
