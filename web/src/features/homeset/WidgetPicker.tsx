/**
 * The widgets of the home: those the user may see (the server's `offered`), each switched on or
 * off; the chosen ones in their order, moved up and down. A widget whose function the user lacks
 * is not in the list at all.
 */
import { Button, List, Switch, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { HomeWidget } from '@coldwatch/contract';
import { moveItem } from '../../app/menu';

export function WidgetPicker({ offered, value, onChange }: { offered: readonly HomeWidget[]; value: HomeWidget[]; onChange: (w: HomeWidget[]) => void }) {
  const { t } = useTranslation('homeset');
  // The chosen ones first, in their order; then the others in the default order.
  const rows = [...value, ...offered.filter((w) => !value.includes(w))];
  return (
    <List
      bordered
      size="small"
      dataSource={rows}
      renderItem={(w) => {
        const at = value.indexOf(w);
        const on = at >= 0;
        return (
          <List.Item
            data-testid={`home-widget-${w}`}
            actions={[
              <Tooltip key="up" title={t('widgets.up')}>
                <Button size="small" type="text" icon={<ArrowUpOutlined />} aria-label={t('widgets.up')} disabled={!on || at === 0} onClick={() => onChange(moveItem(value, at, at - 1))} />
              </Tooltip>,
              <Tooltip key="down" title={t('widgets.down')}>
                <Button size="small" type="text" icon={<ArrowDownOutlined />} aria-label={t('widgets.down')} disabled={!on || at === value.length - 1} onClick={() => onChange(moveItem(value, at, at + 1))} />
              </Tooltip>,
            ]}
          >
            <List.Item.Meta
              avatar={<Switch size="small" checked={on} aria-label={t(`widget.${w}.name`)} onChange={(c) => onChange(c ? [...value, w] : value.filter((x) => x !== w))} />}
              title={
                <span>
                  {on && <Typography.Text type="secondary" className="cw-homeset-order">{at + 1}</Typography.Text>}
                  {t(`widget.${w}.name`)}
                </span>
              }
              description={t(`widget.${w}.text`)}
            />
          </List.Item>
        );
      }}
    />
  );
}
