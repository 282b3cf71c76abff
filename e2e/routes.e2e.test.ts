import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { ADMIN, signedInByApi } from './support/signIn.js';

/**
 * Every route of spec §2 opened in Chromium as the platform administrator (admin of the demo):
 * none lands on /404 (docs/architecture.md "Routes": each opens its page, or the page that carries
 * its content), and the sections go where §2 says.
 */
const SECTIONS: Record<string, string> = {
  '/arch': '/arch/architecture',
  '/databoard': '/databoard/deviceMonitor',
  '/carrier': '/carrier/incubator',
  '/personal': '/personal/material',
  '/code': '/code/findCode',
  '/abnormal': '/abnormal/dataex',
  '/sys': '/sys/scheduled',
  '/order': '/order/workOrder',
  '/user': '/user/userinfo',
  '/count': '/count/dataReport',
  '/device': '/device/sensor',
  '/noti': '/noti/notification',
};
const ROUTES = [
  '/home', '/redirect/home', '/layout', '/material', '/homepageset', '/guide', '/download',
  ...['architecture', 'detection', 'printer', 'alarmRecord', 'verificationTask', 'task', 'temprecord', 'contacts', 'download'].map((p) => `/arch/${p}`),
  ...['deviceMonitor', 'monitoringPoint', 'monitorMap', 'overview'].map((p) => `/databoard/${p}`),
  ...['incubator', 'refrigerator', 'vehicle', 'refrigeratory', 'warehouse', 'store', 'other', 'carrierDetailPage'].map((p) => `/carrier/${p}`),
  '/personal/material', '/code/findCode',
  ...['dataex', 'abnormalcause', 'invalidRule'].map((p) => `/abnormal/${p}`),
  ...['paramsetup', 'forwarding', 'resource', 'unitMeasurement', 'customer', 'carrierType', 'deviceType', 'deviceTransfer', 'online_help'].map((p) => `/sys/${p}`),
  '/order/workOrder', '/user/userinfo', '/user/userLimits',
  ...['dataReport', 'guidance', 'detailData', 'statistic', 'exportTask'].map((p) => `/count/${p}`),
  ...['sensor', 'gateway', 'displayscreen', 'relay', 'base', 'gas', 'magnetism'].map((p) => `/device/${p}`),
  ...['notification', 'sysLog', 'alarmLog'].map((p) => `/noti/${p}`),
  ...['canvasName', 'atinstruction', 'newCarrierDetail', 'historyData', 'SensorDetail', 'GateWayDetail', 'DisplayDetail', 'RelayDetail', 'BaseDetail', 'pointData', 'OperateRecord', 'platInfer', 'plan', 'datadevice', 'monitorPointRealTime', 'exRecord', 'sampleData', 'propertyList', 'traceDetail', 'probeHistory', 'carrierProbeHistory', 'transHistory', 'baseHistory', 'sysAlarm', 'exDetail', 'dataBackup', 'GasDetail'].map((p) => `/${p}`),
];

let console_: RunningConsole;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  page = await signedInByApi(browser, console_.url, 'en-US', 1440, ADMIN);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

/**
 * Opens a route and answers the path it settles on: the guard and the redirects are client-side,
 * so it waits for the shell's content pane or a page of its own (the 404 page, a no-login page),
 * then for the URL to stay the same for a second.
 */
async function settle(route: string): Promise<string> {
  await page.goto(`${console_.url}${route}`);
  await page.locator('.cw-content .ant-card, .ant-result, #root main, #root .ant-card').first().waitFor({ timeout: 20_000 }).catch(() => undefined);
  let last = '';
  for (let same = 0; same < 4; ) {
    await page.waitForTimeout(300);
    const now = new URL(page.url()).pathname;
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return last;
}

describe('routes of spec §2', () => {
  it('every route opened as admin lands on its page or the one carrying its content, never on /404', async () => {
    const lost: string[] = [];
    for (const route of ROUTES) if ((await settle(route)) === '/404') lost.push(route);
    expect(lost).toEqual([]);
  }, 600_000);

  it('sections go where §2 says', async () => {
    for (const [section, first] of Object.entries(SECTIONS)) expect(await settle(section), section).toBe(first);
  }, 300_000);
});
