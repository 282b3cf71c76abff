import { useEffect, useState } from 'react';
import { Alert, DatePicker, Form, Modal, Select } from 'antd';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { App } from 'antd';
import { REPORT_LOCALES, printGroupApi, reportApi, type ReportLocale as Locale, type PrintGroupRow } from '@coldwatch/contract';
import { keyOf } from '../../api/call';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { fromWall, toWall } from '../../lib/format';
import { fetchReport } from './reportFile';

interface Values {
  range: [dayjs.Dayjs, dayjs.Dayjs];
  locale: Locale;
}

/**
 * Prints a group as one PDF report over whole days of the customer's zone (the end day
 * included): the file is saved by the browser and kept in the reports list and the download
 * centre. The quick ranges are the usual report periods.
 */
export function PrintDialog({ group, onClose }: { group: PrintGroupRow | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('printer');
  const { user } = useAuth();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const tz = user?.timeZone;
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!group) return;
    setError(null);
    const today = toWall(Date.now(), tz).startOf('day');
    form.setFieldsValue({ range: [today.subtract(7, 'day'), today.subtract(1, 'day')], locale: (i18n.language === 'zh-CN' ? 'zh-CN' : 'en-US') as Locale });
  }, [group, form, tz, i18n.language]);

  const today = toWall(Date.now(), tz).startOf('day');
  const presets = [
    { label: t('print.yesterday'), value: [today.subtract(1, 'day'), today.subtract(1, 'day')] as [dayjs.Dayjs, dayjs.Dayjs] },
    { label: t('print.lastWeek'), value: [today.subtract(7, 'day'), today.subtract(1, 'day')] as [dayjs.Dayjs, dayjs.Dayjs] },
    { label: t('print.lastMonth'), value: [today.subtract(1, 'month').startOf('month'), today.subtract(1, 'month').endOf('month').startOf('day')] as [dayjs.Dayjs, dayjs.Dayjs] },
    { label: t('print.thisMonth'), value: [today.startOf('month'), today] as [dayjs.Dayjs, dayjs.Dayjs] },
  ];

  const submit = async () => {
    if (!group) return;
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const startTime = fromWall(v.range[0].startOf('day'), tz);
      const endTime = fromWall(v.range[1].startOf('day').add(1, 'day'), tz);
      const r = await fetchReport('POST', printGroupApi.print.path, { id: group.id, startTime, endTime, locale: v.locale });
      void message.success(t('print.done', { name: r.name }));
      await Promise.all([qc.invalidateQueries({ queryKey: keyOf(printGroupApi.list) }), qc.invalidateQueries({ queryKey: keyOf(reportApi.page) })]);
      onClose();
    } catch (e) {
      setError(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={!!group} title={t('print.title', { name: group?.groupName ?? '' })} okText={t('print.ok')} cancelText={t('form.cancel')} confirmLoading={busy} onOk={() => void submit()} onCancel={onClose} width={520} style={{ top: '8vh' }} destroyOnHidden forceRender>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form form={form} name="printForm" layout="vertical">
        <Form.Item name="range" label={t('print.range', { tz: tz ? `UTC${tz}` : '' })} rules={[{ required: true, message: t('print.rangeRequired') }]} extra={t('print.rangeHelp')}>
          <DatePicker.RangePicker style={{ width: '100%' }} presets={presets} allowClear={false} />
        </Form.Item>
        <Form.Item name="locale" label={t('form.locale')}>
          <Select options={REPORT_LOCALES.map((l) => ({ value: l, label: t(`locale.${l}`) }))} />
        </Form.Item>
      </Form>
      <div style={{ color: 'rgba(0,0,0,.55)', fontSize: 12 }}>{t('print.carriers', { names: group?.carriers.map((c) => c.name).join('、') ?? '' })}</div>
    </Modal>
  );
}
