/** The dial of a dashboard gauge: its ends around the zone and the value, and the zone's bands. */
export interface GaugeScale {
  from: number;
  to: number;
  /** ECharts axisLine colour stops: [fraction of the dial up to which, band]. */
  bands: [number, 'low' | 'in' | 'high'][];
}

/**
 * A dial that shows the zone in its middle half with room on both sides, widened to hold the
 * value (at most 10 degrees of room); without a zone, -40 to 40 °C. Ends are whole degrees.
 */
export function gaugeScale(value: number | null, min: number | null, max: number | null): GaugeScale {
  const lo = min ?? (max !== null ? max - 10 : -30);
  const hi = max ?? (min !== null ? min + 10 : 30);
  const room = Math.max(2, Math.min(10, (hi - lo) / 2));
  let from = Math.floor(lo - room);
  let to = Math.ceil(hi + room);
  if (value !== null) {
    from = Math.min(from, Math.floor(value - 1));
    to = Math.max(to, Math.ceil(value + 1));
  }
  const at = (v: number) => (v - from) / (to - from);
  const bands: GaugeScale['bands'] = [];
  if (min !== null) bands.push([at(min), 'low']);
  bands.push([max !== null ? at(max) : 1, 'in']);
  if (max !== null) bands.push([1, 'high']);
  return { from, to, bands };
}
