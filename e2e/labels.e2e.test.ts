import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { consoleAndBrowser, DOCS_SCREENSHOTS } from './support/session.js';

/**
 * The device settings of /sys/paramsetup where a user meets them (docs/devices.md): a new
 * sensor's form starts from the default transmission interval, and Print labels on the sensor
 * list downloads the chosen sensors' label sheet as a PDF (labels-1440-en-US.png: the list with
 * its selection; sensor-add-1440-en-US.png: the form).
 */
const demo = consoleAndBrowser();

describe('sensor labels and the default interval', () => {
  it('a new sensor starts from the default interval; Print labels downloads a PDF of the chosen sensors', async () => {
    const page = await demo.signIn('en-US', 1440);
    const params = await page.request.get(`${demo.url}/service/share/param`).then((r) => r.json());
    await page.goto(`${demo.url}/device/sensor`);
    const rows = page.locator('.ant-table-row');
    await rows.first().waitFor({ timeout: 60_000 });

    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.locator('.ant-modal-wrap:visible .ant-modal');
    await dialog.waitFor();
    expect(await dialog.locator('#sensorForm_sampleInterval').inputValue()).toBe(params.result.sensor_interval_seconds);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, 'sensor-add-1440-en-US.png') });
    await dialog.locator('.ant-modal-footer button').first().click();
    await dialog.waitFor({ state: 'hidden' });

    const print = page.getByTestId('sensor-print-labels');
    expect(await print.isDisabled()).toBe(true);
    for (const i of [0, 1, 2]) await rows.nth(i).locator('.ant-checkbox-input').check();
    await expect.poll(() => page.locator('.ant-table-row .ant-checkbox-checked').count()).toBe(3);
    await page.screenshot({ path: path.join(DOCS_SCREENSHOTS, 'labels-1440-en-US.png') });
    const [download] = await Promise.all([page.waitForEvent('download'), print.click()]);
    expect(download.suggestedFilename()).toBe('sensor-labels.pdf');
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // Three labels on the default twelve a sheet: one page.
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)).toHaveLength(1);
    await page.close();
  }, 180_000);
});
