/** A row of GET /service/exception/page. */
export interface ExceptionRow {
  id: number;
  carrierId?: number | null;
  carrierName: string | null;
  sensorId?: number | null;
  devNo: string | null;
  type: string;
  category: string;
  status: number;
  ongoing: boolean;
  startTs: number;
  endTs: number | null;
  durationS: number | null;
  firstValue: number | null;
  peakValue: number | null;
  limitMin: number | null;
  limitMax: number | null;
  reason: string;
  measures: string;
  [k: string]: unknown;
}
