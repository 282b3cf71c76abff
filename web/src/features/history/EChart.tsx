/** A small React wrapper over echarts/core with only the parts the history chart uses. */
import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  TooltipComponent,
  type DataZoomComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type MarkAreaComponentOption,
  type MarkLineComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([LineChart, GridComponent, TooltipComponent, DataZoomComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, CanvasRenderer]);

export type ChartOption = echarts.ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | DataZoomComponentOption
  | LegendComponentOption
  | MarkAreaComponentOption
  | MarkLineComponentOption
>;

interface Props {
  option: ChartOption;
  height?: number | string;
  /** Called with the plot width on mount and on resize. */
  onWidth?: (width: number) => void;
  /** Called after the user zooms: the window of the first dataZoom as axis values, or null at full view. */
  onZoom?: (window: [number, number] | null) => void;
}

export function EChart({ option, height = 380, onWidth, onZoom }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const widthCb = useRef(onWidth);
  widthCb.current = onWidth;
  const zoomCb = useRef(onZoom);
  zoomCb.current = onZoom;

  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current);
    chart.current = c;
    const ro = new ResizeObserver((entries) => {
      c.resize();
      const w = entries[0]?.contentRect.width;
      if (w) widthCb.current?.(w);
    });
    ro.observe(el.current);
    let zoomTimer: ReturnType<typeof setTimeout> | undefined;
    c.on('datazoom', () => {
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(() => {
        // getOption answers the option as the chart holds it: every component as an array.
        const dz = (c.getOption() as { dataZoom?: DataZoomComponentOption[] } | undefined)?.dataZoom?.[0];
        if (!dz) return;
        const full = (dz.start ?? 0) <= 0 && (dz.end ?? 100) >= 100;
        zoomCb.current?.(full ? null : [Number(dz.startValue), Number(dz.endValue)]);
      }, 300);
    });
    widthCb.current?.(el.current.clientWidth);
    return () => {
      ro.disconnect();
      clearTimeout(zoomTimer);
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true, lazyUpdate: true });
  }, [option]);

  return <div ref={el} style={{ width: '100%', height }} />;
}
