/** The ECharts option of the history chart, built from plain data (kept apart from React). */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import type { MarkAreaComponentOption, MarkLineComponentOption } from 'echarts/components';
import type { ChartOption } from './EChart';

dayjs.extend(utc);
import type { HistoryPoint, Zone } from './historyLogic';

const TEMP_COLOR = '#1677ff';
const HUM_COLOR = '#13c2c2';
const HIGH = '#fa8c16';
const LOW = '#1677ff';

interface Input {
  points: HistoryPoint[];
  zone: Zone;
  withHum: boolean;
  /**
   * The customer's UTC offset in minutes, or null for the browser's zone. With an offset the
   * chart runs in UTC on times shifted by it, so ticks fall on the customer's hours and days.
   */
  offsetMin: number | null;
  /** The requested span (UTC ms): the time axis covers it whole, so gaps show as gaps. */
  span?: [number, number];
  /** A period to highlight (an exception's start and end, UTC ms). */
  highlight?: { from: number; to: number; label: string };
  /** Periods the readings were excluded by invalid rules (UTC ms, half-open), shaded grey under a legend entry of their own. */
  excluded?: { start: number; end: number; name: string }[];
  labels: { temp: string; hum: string; tempZone: string; humZone: string; excluded?: string };
  /** The first series' unit: °C, or what another kind reports in it (a gas detector's ppm). */
  unit?: string;
}

type MarkAreaData = NonNullable<MarkAreaComponentOption['data']>;

/** A series' value at dimension i (the chart's data are [time, value] pairs). */
const valueAt = (value: unknown, i: number): unknown => (Array.isArray(value) ? value[i] : undefined);

/** Band between min and max, and the limits as dashed lines (max orange, min blue: spec §9). */
function zoneMarks(min: number | null, max: number | null, label: string, band: boolean, unit: string) {
  const lines: NonNullable<MarkLineComponentOption['data']> = [];
  // Temperature limits: max orange, min blue (spec §9); humidity limits dotted in the humidity colour.
  const hi = band ? HIGH : HUM_COLOR;
  const lo = band ? LOW : HUM_COLOR;
  if (max !== null) lines.push({ yAxis: max, lineStyle: { color: hi }, label: { formatter: `${max}${unit}`, color: hi } });
  if (min !== null) lines.push({ yAxis: min, lineStyle: { color: lo }, label: { formatter: `${min}${unit}`, color: lo } });
  return {
    markLine: lines.length
      ? { silent: true, symbol: 'none', lineStyle: { type: band ? ('dashed' as const) : ('dotted' as const), width: 1 }, label: { position: band ? ('insideEndTop' as const) : ('insideStartTop' as const), fontSize: 10 }, data: lines }
      : undefined,
    markArea:
      band && min !== null && max !== null
        ? { silent: true, itemStyle: { color: 'rgba(82, 196, 26, 0.08)' }, label: { show: true, position: 'insideTopLeft' as const, color: '#52c41a', fontSize: 10 }, data: [[{ name: label, yAxis: min }, { yAxis: max }]] as MarkAreaData }
        : undefined,
  };
}

/** Adds the highlighted period as a red band across the plot. */
function withHighlight<T extends { markArea?: MarkAreaComponentOption }>(marks: T, h: Input['highlight'], shift: number): T {
  if (!h) return marks;
  const band: MarkAreaData[number] = [
    { name: h.label, xAxis: h.from + shift, itemStyle: { color: 'rgba(255, 77, 79, 0.12)' }, label: { color: '#cf1322', position: 'insideTop' } },
    { xAxis: h.to + shift },
  ];
  const markArea = marks.markArea
    ? { ...marks.markArea, data: [...marks.markArea.data!, band] }
    : { silent: true, label: { show: true, fontSize: 10 }, data: [band] };
  return { ...marks, markArea };
}

const EXCLUDED = 'rgba(140, 140, 140, 0.18)';

/**
 * The excluded periods as a series of their own: no line, a grey band per period. Its legend
 * entry says what the grey means and hides the bands when clicked.
 */
function excludedSeries(excluded: Input['excluded'], label: string | undefined, shift: number) {
  if (!excluded?.length || !label) return [];
  return [
    {
      name: label,
      type: 'line' as const,
      yAxisIndex: 0,
      data: [] as number[][],
      itemStyle: { color: '#8c8c8c' },
      lineStyle: { width: 0 },
      markArea: {
        silent: true,
        itemStyle: { color: EXCLUDED },
        label: { show: true, position: 'insideTop' as const, color: '#595959', fontSize: 10 },
        data: excluded.map((e) => [{ name: e.name, xAxis: e.start + shift }, { xAxis: e.end + shift }]) as MarkAreaData,
      },
    },
  ];
}

export function buildChartOption({ points, zone, withHum, offsetMin, span, highlight, excluded, labels, unit = '°C' }: Input): ChartOption {
  const shift = offsetMin === null ? 0 : offsetMin * 60_000;
  const fmtTime = (v: number, fmt = 'YYYY-MM-DD HH:mm:ss') => (offsetMin === null ? dayjs(v).format(fmt) : dayjs.utc(v).format(fmt));
  const temp = points.map((p) => [p.ts + shift, p.temp ?? null]);
  const hum = points.map((p) => [p.ts + shift, p.hum ?? null]);
  // Keep the zone visible even when every value sits well inside it.
  const padAxis = (min: number | null, max: number | null) => ({
    min: (v: { min: number }) => (min === null ? Math.floor(v.min - 1) : Math.floor(Math.min(v.min, min) - 1)),
    max: (v: { max: number }) => (max === null ? Math.ceil(v.max + 1) : Math.ceil(Math.max(v.max, max) + 1)),
  });
  return {
    animation: false,
    useUTC: offsetMin !== null,
    grid: { left: 56, right: withHum ? 64 : 28, top: 36, bottom: 78 },
    legend: { top: 4, data: [labels.temp, ...(withHum ? [labels.hum] : []), ...(excluded?.length && labels.excluded ? [labels.excluded] : [])] },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'cross', label: { formatter: (p) => (p.axisDimension === 'x' ? fmtTime(Number(p.value)) : Number(p.value).toFixed(2)) } },
      formatter: (params) => {
        const list = Array.isArray(params) ? params : [params];
        if (!list.length) return '';
        const head = fmtTime(Number(valueAt(list[0].value, 0)));
        const body = list
          .map((p) => {
            const v = valueAt(p.value, 1);
            const u = p.seriesName === labels.temp ? unit : '%RH';
            return `${p.marker}${p.seriesName}: <b>${v === null || v === undefined ? '--' : Number(v).toFixed(2)}</b> ${u}`;
          })
          .join('<br/>');
        return `${head}<br/>${body}`;
      },
    },
    xAxis: {
      type: 'time',
      min: span ? span[0] + shift : undefined,
      max: span ? span[1] + shift : undefined,
      axisLabel: { formatter: (v: number) => fmtTime(v, 'MM-DD\nHH:mm'), hideOverlap: true, lineHeight: 14, margin: 10 },
      splitLine: { show: false },
    },
    yAxis: [
      { type: 'value', name: unit, position: 'left', ...padAxis(zone.tempMin, zone.tempMax), splitLine: { lineStyle: { type: 'dashed', color: '#f0f0f0' } } },
      ...(withHum ? [{ type: 'value' as const, name: '%RH', position: 'right' as const, ...padAxis(zone.humMin, zone.humMax), splitLine: { show: false } }] : []),
    ],
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 22, bottom: 10, labelFormatter: (v: number) => fmtTime(v, 'MM-DD HH:mm') },
    ],
    series: [
      {
        name: labels.temp,
        type: 'line',
        yAxisIndex: 0,
        showSymbol: false,
        connectNulls: false,
        sampling: undefined,
        lineStyle: { width: 1.5 },
        itemStyle: { color: TEMP_COLOR },
        data: temp,
        ...withHighlight(zoneMarks(zone.tempMin, zone.tempMax, labels.tempZone, true, unit), highlight, shift),
      },
      ...(withHum
        ? [
            {
              name: labels.hum,
              type: 'line' as const,
              yAxisIndex: 1,
              showSymbol: false,
              connectNulls: false,
              lineStyle: { width: 1.2 },
              itemStyle: { color: HUM_COLOR },
              data: hum,
              ...zoneMarks(zone.humMin, zone.humMax, labels.humZone, false, '%'),
            },
          ]
        : []),
      ...excludedSeries(excluded, labels.excluded, shift),
    ],
  };
}
