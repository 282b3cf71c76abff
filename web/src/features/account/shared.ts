/** Look-ups shared by the user and role pages: customers, roles of a customer, the scene tree of a customer. */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { customerApi, roleApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useAuth } from '../../app/auth';
import { useSceneTree, type SceneNode } from '../../ui';

export interface Option {
  value: number;
  label: string;
}

/** Customers the caller may pick (platform users: GET /service/customer/page; others: none). */
export function useCustomerOptions(enabled = true) {
  const { can } = useAuth();
  const on = enabled && can('viewCustomer');
  return useQuery({
    queryKey: ['customer', 'options'],
    enabled: on,
    staleTime: 60_000,
    queryFn: async (): Promise<Option[]> => {
      const r = await call(customerApi.page, { query: { iDisplayStart: 0, iDisplayLength: 100 } });
      return r.rows.map((c) => ({ value: c.id, label: c.name }));
    },
  });
}

export interface RoleOption extends Option {
  type: string;
  level: number;
  status: number;
  isDefault: boolean;
}

/** Roles of a customer (for the user editor's role choice). */
export function useRoleOptions(customerId: number | undefined, enabled = true) {
  return useQuery({
    queryKey: ['role', 'options', customerId ?? null],
    enabled,
    staleTime: 30_000,
    queryFn: async (): Promise<RoleOption[]> => {
      const r = await call(roleApi.page, { query: { iDisplayStart: 0, iDisplayLength: 100, customerId } });
      return r.rows.map((x) => ({ value: x.id, label: x.name, type: x.type, level: x.level, status: x.status, isDefault: x.isDefault }));
    },
  });
}

export interface SceneOption {
  value: number;
  title: string;
  children?: SceneOption[];
}

/** Scene nodes of one customer from the caller's organisation tree, as TreeSelect data (value = scene id). */
export function scenesOfCustomer(list: SceneNode[] = [], customerId: number | undefined): SceneOption[] {
  const isCustomer = (n: SceneNode) => n.nodeType === 'customer';
  // Find the customer's node; a tree without customer nodes is the caller's own customer.
  const find = (nodes: SceneNode[]): SceneNode[] | undefined => {
    for (const n of nodes) {
      if (isCustomer(n) && (customerId === undefined || Number(n.scope_id) === customerId)) return n.children ?? [];
      const f = find(n.children ?? []);
      if (f) return f;
    }
    return undefined;
  };
  const hasCustomers = (nodes: SceneNode[]): boolean => nodes.some((n) => isCustomer(n) || hasCustomers(n.children ?? []));
  const top = hasCustomers(list) ? (find(list) ?? []) : list.flatMap((n) => (n.code === 'all_node' ? (n.children ?? []) : [n]));
  const conv = (nodes: SceneNode[]): SceneOption[] =>
    nodes
      .filter((n) => n.scene_id !== null && n.scene_id !== undefined && n.nodeType !== 'carrier' && !n.carrierId)
      .map((n) => {
        const kids = conv(n.children ?? []);
        return { value: Number(n.scene_id), title: n.label, children: kids.length ? kids : undefined };
      });
  return conv(top);
}

/** The scene tree limited to one customer. */
export function useCustomerScenes(customerId: number | undefined) {
  const tree = useSceneTree();
  const data = useMemo(() => scenesOfCustomer(tree.data, customerId), [tree.data, customerId]);
  return { data, loading: tree.isFetching };
}

/** A menu entry's title: the shell's catalogue, else ours, else the stored name. */
export function useMenuTitle() {
  const { t } = useTranslation();
  return (code: string, name?: string) => t(`shell:menu.${code}`, { defaultValue: t(`resource:menu.${code}`, { defaultValue: name ?? code }) });
}
