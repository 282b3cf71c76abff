/**
 * The line and gauge charts of the sensor-records and dashboard widgets, registered only by
 * them (HomeChart registers pie and bar): a home without those widgets loads neither.
 */
import * as echarts from 'echarts/core';
import { GaugeChart, LineChart, type GaugeSeriesOption, type LineSeriesOption } from 'echarts/charts';
import { DataZoomComponent, type GridComponentOption, type LegendComponentOption, type TooltipComponentOption } from 'echarts/components';
import type { HomeChartOption } from './HomeChart';

echarts.use([GaugeChart, LineChart, DataZoomComponent]);

export type MoreChartOption = echarts.ComposeOption<LineSeriesOption | GaugeSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;
/** HomeChart draws any registered series; its prop type names pie and bar only. */
export const asHomeOption = (o: MoreChartOption) => o as HomeChartOption;
