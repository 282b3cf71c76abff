import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';
import { publishFrom } from './support/mqtt.js';

/*
 * A company that registers itself sets up its own monitoring, in Chromium, as issue 9 checks it:
 * the wizard is offered at first login; it enrols a gateway and a sensor, creates a fridge in a
 * new place with a 2–8 °C range and binds them; a reading published over MQTT with the shown
 * settings arrives live; the carrier page shows it; switching the alarm off turns the icon red
 * and writes the alarm-switch log.
 */

let console_: RunningConsole;
let browser: Browser;
let page: Page;
const SN = 'A1B2C3D4E5F6';
const DEV = 'WZ000001';

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  await ctx.addCookies([{ name: 'lang', value: 'en_US', url: console_.url }]);
  page = await ctx.newPage();
  const reg = await page.request.post(`${console_.url}/service/user/register`, {
    data: { name: 'Wizard Clinic', code: 'WIZARD', orgType: '02', contact: 'Ann Lee', phone: '13912345678', email: 'ann@wizard.example', account: 'wizard', password: 'wizard123', confirmPassword: 'wizard123' },
  });
  expect((await reg.json()).state.code).toBe(200000);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('a freshly registered company sets up its monitoring with the wizard', () => {
  it('is offered the wizard, enrols a gateway and a sensor, a fridge with a 2–8 °C range, and binds them', async () => {
    await page.goto(`${console_.url}/login`);
    await page.getByPlaceholder('Account').fill('wizard');
    await page.getByPlaceholder('Password').fill('wizard123');
    await page.locator('button[type=submit]').click();
    await page.getByRole('button', { name: 'Start the wizard' }).click();
    await page.waitForURL(/\/wizard/);

    // A bad serial number is refused in the form before anything is sent.
    await page.getByLabel('Serial number').fill('not-a-mac');
    await page.getByLabel('Gateway name').fill('Ward gateway');
    await page.getByLabel('Device number').fill(DEV);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Serial number: the MAC as 12 upper-case hex digits without separators').waitFor();
    await page.getByLabel('Serial number').fill(SN.toLowerCase());
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByLabel('Name', { exact: true }).fill('Vaccine fridge 1');
    await page.getByLabel('Where it stands (a new place)').fill('Pharmacy');
    await page.getByRole('button', { name: 'Next' }).click();

    // The range step proposes 2–8 °C; a minimum above the maximum is refused.
    await page.getByLabel('Temperature min').fill('9');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('The minimum cannot be above the maximum').waitFor();
    await page.getByLabel('Temperature min').fill('2');
    await page.getByText('The minimum cannot be above the maximum').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByText('Sensors of this carrier').waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByText('MQTT port').waitFor();
    await shot(page, 'wizard-done');
  }, 60_000);

  it('shows the settings a gateway needs and the first reading published with them, live', async () => {
    const secret = (await page.locator('.ant-descriptions code').first().innerText()).trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await page.getByText(`Waiting for the first reading of ${DEV}`).waitFor();
    await publishFrom(console_.mqttPort, { sn: SN, secret, dev: DEV }, { temp: 5.25, hum: 48 });
    const text = new RegExp(`Latest reading from ${DEV} at [0-9: -]+: 5.3 °C, 48.0 %RH`);
    const reading = page.getByText(text);
    await reading.waitFor({ timeout: 15_000 });
    expect(await page.locator('.ant-alert-success').count()).toBe(1);
    // Reopened after the sensor has reported, the wizard shows that reading, not "waiting".
    await page.reload();
    await reading.waitFor({ timeout: 15_000 });
    expect(await page.getByText('Waiting for the first reading').count()).toBe(0);
    // A reading outside the 2–8 °C zone is not greeted in green.
    await publishFrom(console_.mqttPort, { sn: SN, secret, dev: DEV }, { temp: 9.5, hum: 48 });
    await page.locator('.ant-alert-warning').getByText('This reading is outside the zone of the carrier').waitFor({ timeout: 15_000 });
    await publishFrom(console_.mqttPort, { sn: SN, secret, dev: DEV }, { temp: 5.25, hum: 48 });
    await page.locator('.ant-alert-success').getByText(text).waitFor({ timeout: 15_000 });
  }, 45_000);

  it('shows the reading on the carrier page; switching the alarm off turns the icon red and writes the log', async () => {
    await page.getByRole('button', { name: 'Open the carrier' }).click();
    await page.waitForURL(/carrierDetailPage/);
    await page.getByText('Range: 2 ~ 8 °C').waitFor();
    expect(await page.locator('[data-range="ok"]').first().innerText()).toContain('5.3');
    await page.locator('button[data-alarm="on"]').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Save' }).click();
    await page.locator('button[data-alarm="off"]').waitFor();
    const color = await page.locator('button[data-alarm="off"] .anticon').evaluate((el) => getComputedStyle(el).color);
    expect(color).toBe('rgb(255, 77, 79)');
    await page.getByRole('tab', { name: 'Alarm switch log' }).click();
    const log = page.getByRole('tabpanel', { name: 'Alarm switch log' });
    await log.getByText('Alarm off').waitFor();
    expect(await log.innerText()).toContain('Ann Lee');
    await shot(page, 'carrier-detail');
  }, 30_000);

  it('shows the same carrier on the board, the monitoring-point table and the map, alarm off as stopped', async () => {
    // The wizard's new place gets coordinates, as a user sets them on the organisation page.
    const carriers = await (await page.request.get(`${console_.url}/service/carrier/page?name=Vaccine`)).json();
    const carrier = carriers.result.rows[0];
    const upd = await page.request.put(`${console_.url}/service/scene/update`, { data: { id: carrier.sceneId, label: carrier.sceneLabel, lng: 121.4737, lat: 31.2304 } });
    expect((await upd.json()).state.code).toBe(200000);

    await page.goto(`${console_.url}/databoard/deviceMonitor`);
    const card = page.locator('.cw-mon-card', { hasText: 'Vaccine fridge 1' });
    expect(await card.innerText()).toContain('5.3');

    await page.goto(`${console_.url}/databoard/monitoringPoint`);
    const row = page.locator('tr', { hasText: 'Vaccine fridge 1' });
    await row.waitFor();
    expect(await row.locator('[data-range]').first().innerText()).toContain('5.3');
    expect(await row.locator('[data-state]').getAttribute('data-state')).toBe('stopped');
    await shot(page, 'monitoring-points');

    await page.goto(`${console_.url}/databoard/monitorMap`);
    const marker = page.locator('.cw-map-marker', { hasText: 'Vaccine fridge 1' });
    await marker.waitFor({ timeout: 15_000 });
    expect(await marker.innerText()).toContain('5.3°C');
    expect(await marker.locator('[data-state]').getAttribute('data-state')).toBe('stopped');
    await marker.click();
    await page.locator('.cw-map-popup', { hasText: 'Vaccine fridge 1' }).waitFor();
    await shot(page, 'monitor-map');
  }, 60_000);

  it('enrols a second gateway and a sensor on the device pages; bad and duplicate numbers are refused in the form', async () => {
    await page.goto(`${console_.url}/device/gateway`);
    await page.locator('.ant-table-tbody tr', { hasText: SN }).waitFor();
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Serial number (MAC)').fill('zz');
    await dialog.getByLabel('Name', { exact: true }).fill('Store gateway');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.getByText('The MAC as 12 hex digits (separators are removed)').waitFor();
    await dialog.getByLabel('Serial number (MAC)').fill('a1:b2:c3:d4:e5:f7');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Configure gateway A1B2C3D4E5F7').waitFor();
    expect(await page.getByRole('dialog').locator('code').first().innerText()).toMatch(/^[0-9a-f]{64}$/);
    await page.keyboard.press('Escape');
    await page.locator('.ant-table-tbody tr', { hasText: 'A1B2C3D4E5F7' }).waitFor();

    await page.goto(`${console_.url}/device/sensor`);
    await page.locator('.ant-table-tbody tr', { hasText: DEV }).waitFor();
    await page.getByRole('button', { name: 'Add' }).click();
    const sd = page.getByRole('dialog');
    await sd.getByLabel('Device number').fill(DEV);
    await sd.getByLabel('Gateway').click();
    await page.locator('.ant-select-item-option', { hasText: 'A1B2C3D4E5F7' }).click();
    await sd.getByRole('button', { name: 'OK' }).click();
    await sd.getByText('The number already exists').waitFor();
    await sd.getByLabel('Device number').fill('WZ000002');
    await sd.getByRole('button', { name: 'OK' }).click();
    await page.locator('tr', { hasText: 'WZ000002' }).waitFor();
    expect(await page.locator('tr', { hasText: 'WZ000002' }).innerText()).toContain('A1B2C3D4E5F7');
    await shot(page, 'sensors');
  }, 60_000);
});
