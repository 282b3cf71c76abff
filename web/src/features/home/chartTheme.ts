import { createContext } from 'react';

/**
 * 'dark' on the monitoring-wall home style: the charts take ECharts' dark theme (light text and
 * axes) on the page's own background. Its own file so that the home page sets it without
 * loading ECharts (HomeChart reads it).
 */
export const ChartTheme = createContext<'dark' | undefined>(undefined);
