/**
 * "Export records" of a scene (GET /service/share/backup/scene): the customer's own copy of a
 * scene's monitoring points, sensors, readings and exceptions as an xlsx workbook, for a period
 * of at most SCENE_EXPORT_MAX_DAYS days. The file downloads straight from the server (a link,
 * not a fetch), so a large workbook never sits in the page's memory.
 */
import { useState } from 'react';
import { Button, DatePicker, Modal, Typography } from 'antd';
import { ExportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { SCENE_EXPORT_DEFAULT_DAYS, SCENE_EXPORT_MAX_DAYS, backupRefs } from '@coldwatch/contract';
import { useRangePresets } from '../../ui';

export function SceneExportButton({ sceneId, name }: { sceneId: number; name: string }) {
  const { t } = useTranslation('backup');
  const presets = useRangePresets();
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(SCENE_EXPORT_DEFAULT_DAYS, 'day'), dayjs()]);
  const tooLong = range[1].diff(range[0], 'day', true) > SCENE_EXPORT_MAX_DAYS;
  const query = new URLSearchParams({ sceneId: String(sceneId), startTime: String(range[0].valueOf()), endTime: String(range[1].valueOf()) });

  return (
    <>
      <Button icon={<ExportOutlined />} onClick={() => setOpen(true)}>
        {t('scene.button')}
      </Button>
      <Modal
        open={open}
        title={t('scene.title', { name })}
        onCancel={() => setOpen(false)}
        footer={
          <Button type="primary" disabled={tooLong} href={tooLong ? undefined : `${backupRefs.scene.path}?${query}`} download onClick={() => setOpen(false)}>
            {t('scene.download')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('scene.hint', { days: SCENE_EXPORT_MAX_DAYS })}</Typography.Paragraph>
        <Typography.Text>{t('scene.period')}</Typography.Text>
        <DatePicker.RangePicker
          style={{ width: '100%', marginTop: 4 }}
          showTime
          value={range}
          presets={presets}
          allowClear={false}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
        />
        {tooLong && <Typography.Text type="danger">{t('scene.tooLong', { days: SCENE_EXPORT_MAX_DAYS })}</Typography.Text>}
      </Modal>
    </>
  );
}
