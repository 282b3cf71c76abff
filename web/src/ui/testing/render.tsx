/**
 * Component tests' harness (Vitest with jsdom, React Testing Library): a component rendered as
 * the console renders it (query client, antd App, router, i18next with the real catalogues),
 * signed in with the function codes given, and the server's answers for the calls it makes.
 * Only the network is stood in for: `fetch` answers from `answers` (path → result) in the
 * spec's envelope and records each call.
 */
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import i18n from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { PAGE_INFO_KEY } from '../../app/auth';

// A whole page with antd in jsdom takes seconds to render and to open its menus.
vi.setConfig({ testTimeout: 30_000 });

const files = import.meta.glob('../../locales/en-US/*.json', { eager: true, import: 'default' }) as Record<string, Record<string, unknown>>;
const resources = { 'en-US': Object.fromEntries(Object.entries(files).map(([f, data]) => [/([^/]+)\.json$/.exec(f)![1], data])) };

const t18n = i18n.createInstance();
void t18n.use(initReactI18next).init({ lng: 'en-US', fallbackLng: 'en-US', ns: Object.keys(resources['en-US']), defaultNS: 'common', resources, interpolation: { escapeValue: false }, initImmediate: false, showSupportNotice: false });

/** jsdom lacks what antd measures with. */
export function withDomStubs() {
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string) => ({ matches: false, media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false }),
    });
  }
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
}

export interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** Stubs fetch: each path answers its result (a function of the call, or a value); records the calls. */
export function serverAnswers(answers: Record<string, unknown>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const u = new URL(input, 'http://localhost');
      const c: Call = { method: init?.method ?? 'GET', path: u.pathname, query: Object.fromEntries(u.searchParams), body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
      calls.push(c);
      const a = answers[u.pathname];
      const result = typeof a === 'function' ? (a as (c: Call) => unknown)(c) : a;
      return new Response(JSON.stringify({ state: { code: a === undefined ? 500001 : 200000, msg: a === undefined ? 'no answer' : 'ok' }, result: result ?? null }), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

/** Renders `node` signed in holding `funcs` (and as user type `userType`), at `path` (a detail page's `?id=`). */
export function renderSignedIn(node: ReactNode, { funcs = [], userType = 0, path = '/' }: { funcs?: string[]; userType?: number; path?: string } = {}) {
  withDomStubs();
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(PAGE_INFO_KEY, { auths: Object.fromEntries(funcs.map((f) => [f, true])), funcs, userType, userRsp: { id: 2, userType, timeZone: '+08:00' }, menu: [] } as never);
  return render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={t18n}>
        <App>
          <MemoryRouter initialEntries={[path]}>{node}</MemoryRouter>
        </App>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}
