import { useMemo, useState } from 'react';
import { DatePicker, Form, Modal, Radio, Segmented, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { carrierApi, exportRefs, sensorApi, type ExportFormat } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { fromWall } from '../../lib/format';
import { useExport } from './useExport';

type Source = 'history' | 'detailData' | 'exceptions' | 'statistic';

/**
 * A new export from the export task page: what (a device's history, a carrier's detail data,
 * exception records with their handling, carriers' statistics), of which subject, over which
 * span, as xlsx or CSV. The server checks it all again (spec §8 messages) before a task exists.
 */
export function NewExportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('download');
  const { user, can } = useAuth();
  const tz = user?.timeZone ?? null;
  const [source, setSource] = useState<Source>('history');
  const [search, setSearch] = useState('');
  const [form] = Form.useForm<{ subject?: string | string[]; range?: [Dayjs, Dayjs]; format: ExportFormat }>();
  const bySensor = source === 'history';
  const carriers = useCall(carrierApi.page, { query: { iDisplayLength: 100, name: search || undefined } }, { enabled: open && !bySensor });
  const sensors = useCall(sensorApi.page, { query: { iDisplayLength: 100, devNo: search || undefined, kind: 'sensor' } }, { enabled: open && bySensor });
  const options = useMemo(
    () =>
      bySensor
        ? (sensors.data?.rows ?? []).map((s) => ({ value: s.devNo, label: s.carrierName ? `${s.devNo} · ${s.carrierName}` : s.devNo }))
        : (carriers.data?.rows ?? []).map((c) => ({ value: String(c.id), label: c.name })),
    [bySensor, sensors.data, carriers.data],
  );
  const history = useExport(exportRefs.history);
  const detail = useExport(exportRefs.detailData);
  const exceptions = useExport(exportRefs.exceptions);
  const statistic = useExport(exportRefs.statistic);
  const busy = history.busy || detail.busy || exceptions.busy || statistic.busy;
  const sources: Source[] = (['history', 'detailData', 'exceptions', 'statistic'] as Source[]).filter((s) => can(s === 'exceptions' ? 'viewEx' : s === 'statistic' ? 'viewStatistic' : 'viewHistory'));

  const submit = async () => {
    const v = await form.validateFields();
    const [a, b] = v.range!;
    const span = { start: fromWall(a.startOf('day'), tz), end: fromWall(b.endOf('day'), tz), format: v.format };
    const ids = ([] as string[]).concat(v.subject ?? []).map(Number);
    const done =
      source === 'history'
        ? await history.run({ body: { deviceNo: String(v.subject), ...span } })
        : source === 'detailData'
          ? await detail.run({ body: { carrierIds: ids, ...span } })
          : source === 'exceptions'
            ? await exceptions.run({ body: { carrierIds: ids.length ? ids : undefined, ...span } })
            : await statistic.run({ body: { carrierIds: ids, ...span } });
    if (done) {
      form.resetFields();
      onClose();
    }
  };

  return (
    <Modal open={open} title={t('new')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okText={t('action.create')} destroyOnHidden width={520}>
      <Segmented<Source>
        block
        value={source}
        onChange={(s) => {
          setSource(s);
          form.setFieldValue('subject', undefined);
        }}
        options={sources.map((s) => ({ value: s, label: t(`source.${s}`) }))}
        style={{ marginBottom: 16 }}
      />
      <Form form={form} layout="vertical" initialValues={{ format: 'xlsx', range: [dayjs().subtract(30, 'day'), dayjs()] }}>
        <Form.Item
          name="subject"
          label={t(bySensor ? 'field.sensor' : source === 'statistic' ? 'field.carriers' : 'field.carrier')}
          rules={[{ required: source !== 'exceptions', message: t('field.required') }]}
        >
          <Select
            className="cw-export-subject"
            mode={source === 'statistic' ? 'multiple' : undefined}
            allowClear
            options={options}
            showSearch={{ filterOption: false, onSearch: setSearch }}
            loading={carriers.isFetching || sensors.isFetching}
            placeholder={t(source === 'exceptions' ? 'field.allCarriers' : 'field.pick')}
          />
        </Form.Item>
        <Form.Item name="range" label={t('field.range')} rules={[{ required: true, message: t('field.required') }]}>
          <DatePicker.RangePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="format" label={t('field.format')}>
          <Radio.Group options={[{ value: 'xlsx', label: 'Excel (xlsx)' }, { value: 'csv', label: 'CSV' }]} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
