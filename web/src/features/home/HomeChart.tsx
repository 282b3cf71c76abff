/** A small ECharts wrapper with only the parts the home widgets use (pie and bar). */
import { useContext, useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, PieChart, type BarSeriesOption, type PieSeriesOption } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, type GridComponentOption, type LegendComponentOption, type TooltipComponentOption } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { ChartTheme } from './chartTheme';

echarts.use([PieChart, BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type HomeChartOption = echarts.ComposeOption<BarSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

export function HomeChart({ option, height = 220 }: { option: HomeChartOption; height?: number }) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const dark = useContext(ChartTheme);

  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current, dark);
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption(dark ? { backgroundColor: 'transparent', ...option } : option, true);
  }, [option, dark]);

  return <div ref={el} style={{ width: '100%', height }} />;
}

/** A donut with its legend on the right (the carrier status and alarm mode widgets). */
export function donutOption(data: { name: string; value: number; itemStyle: { color: string } }[], center = '35%'): HomeChartOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { orient: 'vertical', right: 8, top: 'middle', itemWidth: 10, itemHeight: 10, textStyle: { fontSize: 12 } },
    series: [{ type: 'pie', radius: ['48%', '72%'], center: [center, '50%'], avoidLabelOverlap: true, label: { show: false }, labelLine: { show: false }, data }],
  };
}
