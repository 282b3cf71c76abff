import { Button, Popconfirm, Tooltip } from 'antd';
import { BellFilled, MutedFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { carrierApi } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';

/** Spec §2: red = alarm off, green = on, grey = no trigger set (no zone: nothing can raise an alarm). */
export const ALARM_COLORS = { off: '#ff4d4f', on: '#52c41a', none: '#bfbfbf' } as const;

export function alarmLook(c: { alarmOn: boolean; hasTrigger: boolean }) {
  if (!c.hasTrigger) return 'none' as const;
  return c.alarmOn ? ('on' as const) : ('off' as const);
}

/**
 * The alarm switch icon of a carrier; with `editable` a click asks to switch it (the change is
 * written to the alarm-switch log on the server).
 */
export function AlarmSwitch({ carrier, editable, onChanged }: { carrier: { id: number; name: string; alarmOn: boolean; hasTrigger: boolean }; editable: boolean; onChanged?: () => void }) {
  const { t } = useTranslation('carrier');
  const look = alarmLook(carrier);
  const toggle = useAction(carrierApi.alarmSwitch, { success: carrier.alarmOn ? t('msg.alarmOff') : t('msg.alarmOn'), onDone: () => onChanged?.() });
  const icon = carrier.alarmOn ? <BellFilled style={{ color: ALARM_COLORS[look] }} /> : <MutedFilled style={{ color: ALARM_COLORS[look] }} />;
  const label = t(`alarm.${look}`);
  if (!editable) {
    return (
      <Tooltip title={label}>
        <span role="img" aria-label={label} data-alarm={look}>
          {icon}
        </span>
      </Tooltip>
    );
  }
  return (
    <Popconfirm
      title={carrier.alarmOn ? t('confirm.alarmOff', { name: carrier.name }) : t('confirm.alarmOn', { name: carrier.name })}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      okButtonProps={{ danger: carrier.alarmOn }}
      onConfirm={() => toggle.run({ body: { ids: [carrier.id], alarmOn: !carrier.alarmOn } })}
    >
      <Tooltip title={`${label} · ${t('alarm.clickToSwitch')}`}>
        <Button type="text" size="small" aria-label={label} data-alarm={look} icon={icon} loading={toggle.busy} />
      </Tooltip>
    </Popconfirm>
  );
}
