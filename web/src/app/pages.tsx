import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Spec §9: a page chunk that does not arrive within 120 s fails (the shell offers a retry). */
export const CHUNK_TIMEOUT_MS = 120_000;

type Loader = () => Promise<{ default: ComponentType }>;

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('chunk timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * Pages of other sections, looked up by file so a page that is not written yet shows the
 * "not available" page instead of breaking the build.
 */
const sectionPages = import.meta.glob<{ default: ComponentType }>([
  '../features/databoard/DeviceMonitorPage.tsx',
  '../features/history/HistoryDataPage.tsx',
  '../features/abnormal/ExceptionListPage.tsx',
]);

const unavailable: Loader = () => import('../features/system/UnavailablePage');

const page = (loader: Loader | undefined): LazyExoticComponent<ComponentType> =>
  lazy(() => withTimeout((loader ?? unavailable)(), CHUNK_TIMEOUT_MS));

/** A page inside the shell: its route, tab title, menu section and the function codes it needs. */
export interface PageDef {
  path: string;
  titleKey: string;
  /** Function codes of spec §6 needed to open the page (all of them). */
  funcs?: string[];
  /** Menu section key (shell:menu.<section>); undefined = top-level entry; `hidden` = not in the menu. */
  section?: string;
  hidden?: boolean;
  icon?: string;
  Component: LazyExoticComponent<ComponentType>;
}

export const PAGES: PageDef[] = [
  { path: '/home', titleKey: 'shell:page.home', icon: 'home', Component: page(() => import('../features/home/HomePage')) },
  {
    path: '/databoard/deviceMonitor',
    titleKey: 'shell:page.deviceMonitor',
    section: 'databoard',
    funcs: ['viewMonitorPointRealTime'],
    Component: page(sectionPages['../features/databoard/DeviceMonitorPage.tsx']),
  },
  {
    path: '/abnormal/dataex',
    titleKey: 'shell:page.exceptionRecords',
    section: 'abnormal',
    funcs: ['viewEx'],
    Component: page(sectionPages['../features/abnormal/ExceptionListPage.tsx']),
  },
  {
    path: '/historyData',
    titleKey: 'shell:page.historyData',
    hidden: true,
    Component: page(sectionPages['../features/history/HistoryDataPage.tsx']),
  },
];

/** Section redirects of spec §2 for the sections that have pages. */
export const SECTION_REDIRECTS: Record<string, string> = {
  '/layout': '/home',
  '/databoard': '/databoard/deviceMonitor',
  '/abnormal': '/abnormal/dataex',
};

/** Menu sections, in menu order, with their icons. */
export const SECTIONS = [
  { key: 'databoard', icon: 'databoard' },
  { key: 'abnormal', icon: 'abnormal' },
] as const;

export const pageByPath = (pathname: string) => PAGES.find((p) => p.path === pathname);
