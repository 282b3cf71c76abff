import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Modal, Spin, Tree, type TreeDataNode } from 'antd';
import { CloseOutlined, HolderOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { implementedLeaves, moveItem, pruneTree } from '../../app/menu';
import { IMPLEMENTED } from '../../app/pages';
import { menuIcon } from '../../app/shell/menuIcons';
import { useMenuLabel } from '../../app/shell/SideMenu';
import { MAX_SHORTCUTS, shortcutRefs, type PickNode, type ShortcutEntry } from '@coldwatch/contract';
import { keyOf } from '../../api/call';
import { useAction, useCall } from '../../api/hooks';
import { nextChosen } from './logic';

/**
 * The shortcut dialog of spec §2: pick menu entries from a tree (left), reorder them by dragging
 * and remove them (right), confirm to save (POST /service/mine/addShortcut with the ids in order).
 */
export function ShortcutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shortcut');
  const label = useMenuLabel();
  const qc = useQueryClient();
  const tree = useCall(shortcutRefs.menu, undefined, { enabled: open, staleTime: 0 });
  const pruned = useMemo(() => pruneTree(tree.data ?? [], IMPLEMENTED), [tree.data]);
  const leaves = useMemo(() => implementedLeaves(pruned, IMPLEMENTED), [pruned]);
  const byId = useMemo(() => new Map(leaves.map((l) => [l.id, l])), [leaves]);
  const [chosen, setChosen] = useState<number[]>([]);
  const [dragFrom, setDragFrom] = useState<number>();
  const [over, setOver] = useState<number>();
  const [error, setError] = useState<string>();
  const save = useAction(shortcutRefs.set, {
    success: t('saved'),
    invalidates: [shortcutRefs.list],
    onDone: onClose,
    onFailed: (e) => {
      setError(errorMessage(e, t));
      return true;
    },
  });
  const busy = save.busy;

  // Start from the current shortcuts in their saved order (the bar's list), else the tree's marks.
  useEffect(() => {
    if (!open || !tree.data) return;
    const saved = (qc.getQueryData<ShortcutEntry[]>(keyOf(shortcutRefs.list, {})) ?? []).map((s) => s.id).filter((id) => byId.has(id));
    const marked = leaves.filter((l) => l.check).map((l) => l.id);
    setChosen(saved.length ? [...saved, ...marked.filter((id) => !saved.includes(id))] : marked);
    setError(undefined);
  }, [open, tree.data, leaves, byId, qc]);

  const toNodes = (nodes: PickNode[]): TreeDataNode[] =>
    nodes.map((n) => {
      const isLeaf = !n.children?.length;
      const full = isLeaf && !chosen.includes(n.id) && chosen.length >= MAX_SHORTCUTS;
      return {
        key: n.id,
        title: label(n.code, n.name),
        icon: isLeaf ? undefined : menuIcon(n.code, n.icon),
        disableCheckbox: full,
        children: isLeaf ? undefined : toNodes(n.children!),
      };
    });

  const confirm = () => {
    setError(undefined);
    void save.run({ body: { ids: chosen } });
  };

  const drop = (to: number) => {
    if (dragFrom !== undefined) setChosen((c) => moveItem(c, dragFrom, to));
    setDragFrom(undefined);
    setOver(undefined);
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('title')}
      width={680}
      style={{ top: '8vh' }}
      okText={t('confirm')}
      onOk={confirm}
      okButtonProps={{ loading: busy, disabled: tree.isLoading || tree.isError }}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <div className="cw-sc-dialog">
        <div className="cw-sc-pane" data-testid="shortcut-tree">
          <div className="cw-sc-pane-title">{t('pick')}</div>
          {tree.isLoading ? (
            <Spin style={{ display: 'block', margin: '40px auto' }} />
          ) : tree.isError ? (
            <Alert type="error" showIcon title={errorMessage(tree.error, t)} />
          ) : pruned.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('nothing')} />
          ) : (
            <Tree
              checkable
              showIcon
              defaultExpandAll
              selectable={false}
              treeData={toNodes(pruned)}
              checkedKeys={chosen}
              onCheck={(keys) => {
                const checked = (Array.isArray(keys) ? keys : keys.checked).map(Number).filter((k) => byId.has(k));
                setChosen((c) => nextChosen(c, checked, leaves.map((l) => l.id), MAX_SHORTCUTS));
              }}
            />
          )}
        </div>
        <div className="cw-sc-pane" data-testid="shortcut-chosen">
          <div className="cw-sc-pane-title">
            <span>{t('chosen')}</span>
            <span className="cw-sc-count">
              {chosen.length}/{MAX_SHORTCUTS}
            </span>
          </div>
          {chosen.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noneChosen')} />
          ) : (
            chosen.map((id, i) => {
              const n = byId.get(id);
              if (!n) return null;
              return (
                <div
                  key={id}
                  className={`cw-sc-item${dragFrom === i ? ' dragging' : ''}${over === i && dragFrom !== i ? ' over' : ''}`}
                  draggable
                  onDragStart={(e) => {
                    e.dataTransfer.effectAllowed = 'move';
                    e.dataTransfer.setData('text/plain', String(i));
                    setDragFrom(i);
                  }}
                  onDragOver={(e) => {
                    e.preventDefault();
                    e.dataTransfer.dropEffect = 'move';
                    if (over !== i) setOver(i);
                  }}
                  onDragLeave={() => setOver((o) => (o === i ? undefined : o))}
                  onDrop={(e) => {
                    e.preventDefault();
                    drop(i);
                  }}
                  onDragEnd={() => {
                    setDragFrom(undefined);
                    setOver(undefined);
                  }}
                  data-testid="shortcut-item"
                >
                  <HolderOutlined className="cw-sc-handle" />
                  {menuIcon(n.code, n.icon)}
                  <span className="cw-sc-item-name">{label(n.code, n.name)}</span>
                  <Button
                    type="text"
                    size="small"
                    icon={<CloseOutlined />}
                    aria-label={t('remove')}
                    onClick={() => setChosen((c) => c.filter((x) => x !== id))}
                  />
                </div>
              );
            })
          )}
          <div className="cw-sc-hint">{t('dragHint')}</div>
        </div>
      </div>
    </Modal>
  );
}
