import { describe, expect, it } from 'vitest';
import { allKeys, buildPermTree, fromCheckedKeys, funcKey, funcVerb, menuKey, normalisePermNode, toCheckedKeys } from './permissionTree';

const raw = [
  {
    id: 1,
    code: 'databoard',
    name: 'Data board',
    children: [
      { id: 2, code: 'deviceMonitor', name: 'Monitor', funcs: ['viewCarrier', 'newCarrier', 'editCarrier', 'removeCarrier'] },
      { id: 3, code: 'fridge', name: 'Fridge', funcObject: 'Carrier' },
    ],
  },
  { id: 4, code: 'onlineHelp', name: 'Help' },
  { id: 5, code: 'user', name: 'Users', funcs: [{ code: 'viewUser' }, { code: 'newUser' }] },
];
const tree = buildPermTree(raw.map(normalisePermNode), (n) => n.name, (c) => c);

describe('permission tree', () => {
  it('normalises funcs given as codes, objects or a function object', () => {
    const n = raw.map(normalisePermNode);
    expect(n[0].children[1].funcs).toEqual(['viewCarrier', 'newCarrier', 'editCarrier', 'removeCarrier']);
    expect(n[2].funcs).toEqual(['viewUser', 'newUser']);
    expect(n[1].funcs).toEqual([]);
  });

  it('puts function leaves under their entry', () => {
    expect(tree[0].children![0].children!.map((c) => c.key)).toEqual(['f:2:viewCarrier', 'f:2:newCarrier', 'f:2:editCarrier', 'f:2:removeCarrier']);
    expect(tree[1].children).toBeUndefined();
    expect(allKeys(tree)).toHaveLength(1 + 1 + 4 + 1 + 4 + 1 + 1 + 2);
  });

  it('checks only leaves of the role: funcs under its resources, entries without children', () => {
    const keys = toCheckedKeys(tree, [1, 2, 4], ['viewCarrier', 'editCarrier', 'viewUser']);
    expect(keys.sort()).toEqual([funcKey(2, 'editCarrier'), funcKey(2, 'viewCarrier'), menuKey(4)].sort());
  });

  it('derives entries and codes from checked keys; sections only when the role had them', () => {
    expect(fromCheckedKeys(tree, [funcKey(2, 'viewCarrier'), menuKey(4)])).toEqual({ resourceIds: [2, 4], funcs: ['viewCarrier'] });
    expect(fromCheckedKeys(tree, [funcKey(2, 'viewCarrier')], [1])).toEqual({ resourceIds: [1, 2], funcs: ['viewCarrier'] });
    // A kept section with nothing granted under it goes.
    expect(fromCheckedKeys(tree, [menuKey(4)], [1])).toEqual({ resourceIds: [4], funcs: [] });
    // A fully checked section (antd lists it) grants its entries, not itself.
    expect(fromCheckedKeys(tree, [menuKey(1)]).resourceIds).toEqual([2, 3]);
    expect(fromCheckedKeys(tree, [])).toEqual({ resourceIds: [], funcs: [] });
  });

  it('a fully checked entry grants all its functions', () => {
    expect(fromCheckedKeys(tree, [menuKey(5)])).toEqual({ resourceIds: [5], funcs: ['newUser', 'viewUser'] });
  });

  it('round-trips', () => {
    const role = { resourceIds: [1, 3, 5], funcs: ['editCarrier', 'newUser', 'viewCarrier'] };
    const keys = toCheckedKeys(tree, role.resourceIds, role.funcs);
    expect(fromCheckedKeys(tree, keys, role.resourceIds)).toEqual(role);
    // A role without its section round-trips without gaining it.
    const role2 = { resourceIds: [3, 5], funcs: ['viewCarrier', 'viewUser'] };
    expect(fromCheckedKeys(tree, toCheckedKeys(tree, role2.resourceIds, role2.funcs), role2.resourceIds)).toEqual(role2);
  });

  it('the other-functions node (id 0) is no resource', () => {
    const t2 = buildPermTree([normalisePermNode({ id: 0, code: 'other', name: 'other', funcs: ['viewAlarmTrigger'] })], (n) => n.name, (c) => c);
    expect(fromCheckedKeys(t2, [funcKey(0, 'viewAlarmTrigger')])).toEqual({ resourceIds: [], funcs: ['viewAlarmTrigger'] });
    expect(toCheckedKeys(t2, [], ['viewAlarmTrigger'])).toEqual([funcKey(0, 'viewAlarmTrigger')]);
  });

  it('tells the verb of a code', () => {
    expect(funcVerb('viewMonitorPointRealTime')).toBe('view');
    expect(funcVerb('removeUser')).toBe('remove');
    expect(funcVerb('newCustomer')).toBe('new');
    expect(funcVerb('viewer')).toBeUndefined();
  });
});
