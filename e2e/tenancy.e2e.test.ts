import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, shot } from './support/browser.js';
import { startConsole, type RunningConsole } from './support/console.js';

/**
 * Issue 3's path as people walk it: the platform administrator creates a customer in the
 * console, gives it a role with a chosen set of functions and a user; that user sees only
 * what the role grants and is refused a forbidden call made by hand; cancelling the
 * customer locks the user out and activating lets it back in.
 */
let console_: RunningConsole;
let browser: Browser;
let adminCtx: BrowserContext;
let admin: Page;
let userCtx: BrowserContext;
let user: Page;

const CUSTOMER = { name: 'Harbor Clinic', code: 'HARBOR', account: 'harboradmin', password: 'harbor_123' };
const WATCHER = { account: 'harborwatch', password: 'watch123' };

async function login(page: Page, account: string, password: string) {
  await page.goto(`${console_.url}/login`);
  await page.getByPlaceholder('Account').fill(account);
  await page.getByPlaceholder('Password').fill(password);
  await page.locator('button[type=submit]').click();
}

/** An API call made by hand with the page's session, as a curious user would from the console. */
async function call(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const res = await page.request.fetch(`${console_.url}${path}`, { method, data });
  return (await res.json()) as { state: { code: number; msg: string }; result: any };
}

beforeAll(async () => {
  console_ = await startConsole({ SIMULATOR: '0' });
  browser = await launch();
  const opts = { viewport: { width: 1440, height: 900 }, locale: 'en-US' };
  adminCtx = await browser.newContext(opts);
  userCtx = await browser.newContext(opts);
  for (const c of [adminCtx, userCtx]) await c.addCookies([{ name: 'lang', value: 'en-US', url: console_.url }]);
  admin = await adminCtx.newPage();
  user = await userCtx.newPage();
});

afterAll(async () => {
  await browser?.close();
  await console_?.stop();
});

describe('tenancy, roles and permissions', () => {
  it('lets the platform administrator create a customer with its administrator', async () => {
    await login(admin, 'admin', 'admin123');
    await admin.waitForURL(/\/home/);
    await admin.goto(`${console_.url}/sys/customer`);
    await admin.getByRole('button', { name: 'New customer' }).click();
    await admin.locator('#customerForm_name').fill(CUSTOMER.name);
    await admin.locator('#customerForm_code').fill(CUSTOMER.code);
    await admin.locator('#customerForm_account').fill(CUSTOMER.account);
    await admin.locator('#customerForm_password').fill(CUSTOMER.password);
    await shot(admin, 'customer-dialog-en');
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.locator('tr', { hasText: CUSTOMER.name }).first().waitFor();
    await shot(admin, 'customers-en');
  });

  it('gives the customer a role that may only watch the device monitor, and a user holding it (made in the user dialog)', async () => {
    const page = await call(admin, 'GET', `/service/customer/page?name=${encodeURIComponent(CUSTOMER.name)}`);
    const customerId = page.result.rows[0].id as number;
    const tree = await call(admin, 'GET', '/service/resource/tree');
    const flat = (nodes: any[]): any[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
    const monitor = flat(tree.result).find((n) => n.code === 'deviceMonitor');
    const role = await call(admin, 'POST', '/service/role/add', {
      name: 'Monitor only',
      customerId,
      resourceIds: [monitor.id],
      funcs: ['viewCarrier', 'viewMonitorPointRealTime'],
    });
    expect(role.state.code).toBe(200000);

    // The user is made in the console's user dialog, as the administrator would.
    await admin.goto(`${console_.url}/user/userinfo`);
    await admin.getByRole('button', { name: 'New user' }).click();
    const pick = async (select: string, option: string) => {
      await admin.locator(select).click();
      await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
    };
    await pick('#userForm_customerId', CUSTOMER.name);
    await admin.locator('#userForm_account').fill(WATCHER.account);
    await admin.locator('#userForm_name').fill('Harbor Watch');
    await admin.locator('#userForm_mobile').fill('13800000001');
    await pick('#userForm_roleIds', 'Monitor only');
    await admin.locator('#userForm_password').fill(WATCHER.password);
    await shot(admin, 'user-dialog-en');
    await admin.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await admin.locator('tr', { hasText: WATCHER.account }).first().waitFor();
  });

  it('shows that user only what its role grants, and refuses a forbidden call made by hand', async () => {
    await login(user, WATCHER.account, WATCHER.password);
    await user.waitForURL(/\/home/);
    const sider = user.locator('.cw-sider');
    await sider.getByText('Data board').waitFor();
    for (const hidden of ['Exceptions', 'Accounts', 'System', 'Logs']) expect(await sider.getByText(hidden, { exact: true }).count()).toBe(0);
    await user.getByTestId(/^kpi-/).first().waitFor();
    await shot(user, 'restricted-user-home-en');

    expect((await call(user, 'GET', '/service/carrier/page')).state.code).toBe(200000);
    const forbidden = await call(user, 'GET', '/service/exception/page');
    expect(forbidden.state.code).toBe(500102);
    expect(forbidden.state.msg).toBe('No permission, please contact the administrator');
    const write = await call(user, 'POST', '/service/carrier/add', { name: 'Sneaky fridge', type: 2, sceneId: 1 });
    expect(write.state.code).toBe(500102);

    // A page the role does not grant, typed into the address bar: no access.
    await user.goto(`${console_.url}/abnormal/dataex`);
    await user.getByText('No access permission').first().waitFor();
  });

  it('locks the user out when the customer is cancelled, and lets it back in on activation', async () => {
    await admin.goto(`${console_.url}/sys/customer`);
    const row = admin.locator('tr', { hasText: CUSTOMER.name }).first();
    await row.getByRole('button', { name: 'Cancel account' }).click();
    await admin.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm' }).click();
    await row.getByRole('button', { name: 'Activate' }).waitFor();

    // The open session ends at once, and a new login is refused.
    expect((await call(user, 'GET', '/service/carrier/page')).state.code).toBe(500100);
    await login(user, WATCHER.account, WATCHER.password);
    await user.getByText(/cancelled/i).first().waitFor();
    expect(user.url()).toContain('/login');
    await shot(user, 'cancelled-login-en');

    await row.getByRole('button', { name: 'Activate' }).click();
    await admin.locator('.ant-popconfirm').getByRole('button', { name: 'Confirm' }).click();
    await admin.getByText('Activation success').first().waitFor();

    await login(user, WATCHER.account, WATCHER.password);
    await user.waitForURL(/\/home/);
    expect((await call(user, 'GET', '/service/carrier/page')).state.code).toBe(200000);
  });
});
