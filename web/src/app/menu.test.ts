import { describe, expect, it } from 'vitest';
import { contractMenu, findEntry, menuCodes, pruneTree, sideMenuModel, userMenuKeys } from './menu';
import { canOpen, IMPLEMENTED, PAGES, pageByPath } from './pages';
import type { MenuNode } from './auth';

const node = (id: number, code: string, url: string, children?: MenuNode[], hidden = false): MenuNode => ({ id, code, name: code, url, icon: '', hidden, children: children ?? [] });

const serverMenu: MenuNode[] = [
  node(1, 'home', '/home', undefined, true),
  node(2, 'databoard', '/databoard', [node(3, 'deviceMonitor', '/databoard/deviceMonitor'), node(4, 'futureBoard', '/databoard/futureBoard')]),
  node(5, 'count', '/count', [node(6, 'futureReport', '/count/futureReport')]),
  node(7, 'log', '/noti', [node(8, 'futureLog', '/noti/futureLog'), node(9, 'sysLog', '/noti/sysLog')]),
  node(10, 'futureEntry', '/future/entry'),
];

describe('left menu from the server menu', () => {
  const model = sideMenuModel(serverMenu, IMPLEMENTED);
  it('keeps only entries with an implemented route, and sections holding one', () => {
    expect(model.map((e) => e.code)).toEqual(['databoard', 'log']);
    expect(model[0].children!.map((c) => c.code)).toEqual(['deviceMonitor']);
    expect(model[1].children!.map((c) => c.code)).toEqual(['sysLog']);
  });
  it('never lists hidden entries', () => {
    expect(JSON.stringify(model)).not.toContain('"home"');
  });
  it('finds the section of a path', () => {
    expect(findEntry(model, '/noti/sysLog').section).toBe('section:log');
    expect(findEntry(model, '/nowhere')).toEqual({});
  });
  it('prunes a pick tree to implemented leaves', () => {
    expect(pruneTree(serverMenu, IMPLEMENTED).map((n) => n.code)).toEqual(['databoard', 'log']);
  });
});

describe('route gate', () => {
  const all = () => true;
  const codes = menuCodes(serverMenu);
  it('needs the menu entry of the page when the menu is known', () => {
    expect(canOpen(pageByPath('/noti/sysLog')!, { can: all, isRoot: false, menuCodes: codes })).toBe(true);
    expect(canOpen(pageByPath('/abnormal/dataex')!, { can: all, isRoot: false, menuCodes: codes })).toBe(false);
    expect(canOpen(pageByPath('/abnormal/dataex')!, { can: all, isRoot: false })).toBe(true);
  });
  it('needs every function code', () => {
    expect(canOpen(pageByPath('/noti/sysLog')!, { can: (...c) => !c.includes('viewSysLog'), isRoot: false, menuCodes: codes })).toBe(false);
  });
  it('opens the resource page to root only', () => {
    const page = pageByPath('/sys/resource')!;
    expect(canOpen(page, { can: all, isRoot: false })).toBe(false);
    expect(canOpen(page, { can: all, isRoot: true })).toBe(true);
  });
  it('opens pages without menu entry to everyone signed in', () => {
    expect(canOpen(pageByPath('/personal/material')!, { can: () => false, isRoot: false, menuCodes: new Set() })).toBe(true);
    expect(canOpen(pageByPath('/home')!, { can: () => false, isRoot: false, menuCodes: new Set() })).toBe(true);
  });
  it('every page has a distinct path', () => {
    expect(new Set(PAGES.map((p) => p.path)).size).toBe(PAGES.length);
  });
});

describe('contract menu (server without a menu)', () => {
  it('shows the resource entry to root only and cuts by view codes', () => {
    const codesOf = (m: MenuNode[]) => [...menuCodes(m)];
    const customer = contractMenu({ can: (c) => c === 'viewSysLog' || c === 'viewEx', userType: 1, isRoot: false });
    expect(codesOf(customer)).toContain('sysLog');
    expect(codesOf(customer)).toContain('ex');
    expect(codesOf(customer)).not.toContain('resource');
    expect(codesOf(customer)).not.toContain('customer');
    const operator = contractMenu({ can: (c) => c === 'viewSysLog', userType: 0, isRoot: false });
    expect(codesOf(operator)).not.toContain('sysLog');
    expect(codesOf(contractMenu({ can: () => true, userType: 3, isRoot: true }))).toContain('resource');
  });
});

describe('user menu', () => {
  it('offers the proxy switch to account type -1 only', () => {
    expect(userMenuKeys(-1)).toContain('proxy');
    expect(userMenuKeys(1)).not.toContain('proxy');
    expect(userMenuKeys(3)).not.toContain('proxy');
    expect(userMenuKeys(0)).toEqual(['profile', 'password', 'loginQr', 'language', 'homeSettings', 'logout']);
    expect(userMenuKeys(1, true)).toEqual(['profile', 'password', 'wizard', 'enroll', 'loginQr', 'language', 'homeSettings', 'logout']);
  });
});

describe("the spec's menu module names (§2)", () => {
  it('are every one a menu entry, seeded at start from the contract', async () => {
    const { flattenMenu } = await import('@coldwatch/contract');
    const SPEC = 'deviceMonitor, monitoringPoint, Map, incubator, fridge, car, refrigeratory, analGuidance, detailData, ex, exReason, sensor, gateway, display, relay, base, scene, proberange, alarmRecord, collectRecord, workOrder, contact, download, noticelog, sysLog, alarmLog, user, role, customer, probeunit, forwarding, param, carrierType, monitorTask, deviceType, deviceTransfer, resource, warehouse, overview, store, exportTask, statistic, invalidRule, gas, magnetism, verificationTask, onlineHelp'.split(', ');
    expect(SPEC).toHaveLength(47);
    const codes = new Set(flattenMenu().map((e) => e.code));
    expect(SPEC.filter((c) => !codes.has(c))).toEqual([]);
  });
});
