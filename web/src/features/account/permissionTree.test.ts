import { describe, expect, it } from 'vitest';
import { allKeys, buildPermTree, fromCheckedKeys, funcKey, funcVerb, menuKey, toCheckedKeys, type PermNode } from './permissionTree';

const node = (id: number, code: string, name: string, funcs: string[] = [], children: PermNode[] = []): PermNode => ({ id, code, name, funcs, children });
const nodes: PermNode[] = [
  node(1, 'databoard', 'Data board', [], [
    node(2, 'deviceMonitor', 'Monitor', ['viewCarrier', 'newCarrier', 'editCarrier', 'removeCarrier']),
    node(3, 'fridge', 'Fridge', ['viewCarrier', 'newCarrier', 'editCarrier', 'removeCarrier']),
  ]),
  node(4, 'onlineHelp', 'Help'),
  node(5, 'user', 'Users', ['viewUser', 'newUser']),
];
const tree = buildPermTree(nodes, (n) => n.name, (c) => c);

describe('permission tree', () => {
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
    const t2 = buildPermTree([node(0, 'other', 'other', ['viewAlarmTrigger'])], (n) => n.name, (c) => c);
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
